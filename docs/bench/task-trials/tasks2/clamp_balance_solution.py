def clamp_balance(amounts):
    bal = 0
    out = []
    for a in amounts:
        bal = max(0, bal + a)
        out.append(bal)
    return out
