def group_values(pairs):
    groups = {}
    for key, value in pairs:
        groups.setdefault(key, []).append(value)
    return groups


def average_by_key(pairs):
    groups = group_values(pairs)
    return {key: sum(vals) / len(vals) for key, vals in groups.items()}
