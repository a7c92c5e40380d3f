def move_zeros(xs):
    non_zero = [x for x in xs if x != 0]
    return non_zero + [0] * (len(xs) - len(non_zero))
