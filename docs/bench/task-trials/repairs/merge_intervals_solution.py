def merge_intervals(intervals):
    """Merge overlapping intervals.

    intervals is a list of [start, end] pairs in any order. Intervals that
    overlap or touch (e.g. [1, 3] and [3, 5]) are merged into one. Returns
    a new list of [start, end] pairs sorted by start.
    """
    merged = []
    for start, end in sorted(intervals, key=lambda p: p[0]):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged
