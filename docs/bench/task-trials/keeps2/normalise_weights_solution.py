def normalise_weights(weights):
    total = sum(weights.values())
    if total == 0:
        raise ValueError("weights sum to zero")
    for k in weights:
        weights[k] = weights[k] / total
