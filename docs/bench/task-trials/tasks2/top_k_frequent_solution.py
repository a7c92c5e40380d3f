def top_k_frequent(words: list[str], k: int) -> list[str]:
    if k <= 0:
        return []
    counts = {}
    first = {}
    for i, w in enumerate(words):
        counts[w] = counts.get(w, 0) + 1
        first.setdefault(w, i)
    order = sorted(counts, key=lambda w: (-counts[w], first[w]))
    return order[:k]
