def remove_falsy(items):
    before = len(items)
    items[:] = [x for x in items if x]
    return before - len(items)
