def split_amount(total_cents: int, n: int) -> list[int]:
    if n == 0:
        return []
    q, r = divmod(total_cents, n)
    return [q + 1] * r + [q] * (n - r)
