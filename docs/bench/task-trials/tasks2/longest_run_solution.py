def longest_run(s):
    best = ('', 0)
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        if j - i > best[1]:
            best = (s[i], j - i)
        i = j
    return best
