def median(values):
    """Return the median of a non-empty list of numbers.

    For an odd number of values this is the middle value of the sorted
    values; for an even number it is the mean of the two middle values.
    The caller's list must not be modified.
    """
    ordered = sorted(values)
    n = len(ordered)
    mid = n // 2
    if n % 2 == 1:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2
