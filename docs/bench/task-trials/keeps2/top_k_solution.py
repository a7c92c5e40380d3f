def top_k(nums, k):
    if k <= 0:
        return []
    return sorted(nums, reverse=True)[:k]
