def normalize_rows(matrix):
    out = []
    for row in matrix:
        s = sum(row)
        out.append([x / s if s else 0.0 for x in row])
    return out
