def unique_words(text):
    seen = set()
    out = []
    for w in text.split():
        k = w.lower()
        if k not in seen:
            seen.add(k)
            out.append(w)
    return out
