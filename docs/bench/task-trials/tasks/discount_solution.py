def apply_discount(price, percent):
    if not 0 <= percent <= 100 or price < 0:
        raise ValueError((price, percent))
    return round(price * (100 - percent) / 100, 2)
