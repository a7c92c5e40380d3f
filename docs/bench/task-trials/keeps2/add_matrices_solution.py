def add_matrices(a, b):
    if len(a) != len(b) or any(len(ra) != len(rb) for ra, rb in zip(a, b)):
        raise ValueError("matrices must have the same shape")
    return [[x + y for x, y in zip(ra, rb)] for ra, rb in zip(a, b)]
