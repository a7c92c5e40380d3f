def weekday_name(n):
    names = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
    if not 0 <= n <= 6:
        raise ValueError(n)
    return names[n]
