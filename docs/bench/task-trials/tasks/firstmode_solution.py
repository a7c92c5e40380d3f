def most_common_char(s: str) -> str:
    best = ''
    for c in s:
        if best == '' or s.count(c) > s.count(best):
            best = c
    return best
