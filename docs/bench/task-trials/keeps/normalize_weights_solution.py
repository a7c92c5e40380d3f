def normalize_weights(weights):
    if not weights:
        raise ValueError("no weights")
    total = sum(weights.values())
    if total == 0:
        raise ValueError("weights sum to zero")
    return {k: v / total for k, v in weights.items()}
