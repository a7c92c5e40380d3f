def dedupe(lst):
    lst[:] = list(dict.fromkeys(lst))
