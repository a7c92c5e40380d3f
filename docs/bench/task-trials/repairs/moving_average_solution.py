def moving_average(xs, k):
    out = []
    for i in range(len(xs) - k + 1):
        window = xs[i:i + k]
        out.append(sum(window) / k)
    return out
