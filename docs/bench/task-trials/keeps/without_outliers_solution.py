import math

def without_outliers(xs, z):
    if not xs:
        return []
    mean = sum(xs) / len(xs)
    std = math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))
    return [x for x in xs if abs(x - mean) <= z * std]
