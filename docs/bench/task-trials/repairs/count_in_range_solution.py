from bisect import bisect_left, bisect_right


def count_in_range(sorted_nums, lo, hi):
    """Return how many values x in sorted_nums satisfy lo <= x <= hi.

    sorted_nums is sorted in ascending order and may contain duplicates.
    Both bounds are inclusive. If lo > hi the answer is 0.
    """
    if lo > hi:
        return 0
    return bisect_right(sorted_nums, hi) - bisect_left(sorted_nums, lo)
