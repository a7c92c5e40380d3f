def dedupe_keep_last(items):
    seen = set()
    out = []
    for x in reversed(items):
        if x not in seen:
            seen.add(x)
            out.append(x)
    out.reverse()
    return out
