def run_length_encode(s):
    runs = []
    if not s:
        return runs
    current = s[0]
    count = 1
    for ch in s[1:]:
        if ch == current:
            count += 1
        else:
            runs.append((current, count))
            current = ch
            count = 1
    runs.append((current, count))
    return runs
