def find_gaps(busy: list[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    gaps = []
    cur = start
    for a, b in sorted(busy):
        a, b = max(a, start), min(b, end)
        if a >= b:
            continue
        if a > cur:
            gaps.append((cur, a))
        cur = max(cur, b)
    if cur < end:
        gaps.append((cur, end))
    return gaps
