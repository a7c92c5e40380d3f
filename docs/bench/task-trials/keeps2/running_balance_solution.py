def running_balance(transactions, opening=0):
    bal = opening
    out = []
    for t in transactions:
        bal += t["amount"]
        row = dict(t)
        row["balance"] = bal
        out.append(row)
    return out
