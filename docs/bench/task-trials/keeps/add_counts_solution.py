def add_counts(a, b):
    result = dict(a)
    for key, n in b.items():
        result[key] = result.get(key, 0) + n
    return result
