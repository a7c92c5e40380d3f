def nearest_index(values: list[float], target: float) -> int:
    if not values:
        return -1
    return min(range(len(values)), key=lambda i: (abs(values[i] - target), values[i], i))
