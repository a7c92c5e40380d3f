class Stats:
    def __init__(self, ndigits=2):
        self.ndigits = ndigits

    def summary(self, values):
        if not values:
            raise ValueError("empty list")
        s = sorted(values)
        n = len(s)
        median = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
        r = lambda x: round(x, self.ndigits)
        return {"min": r(s[0]), "max": r(s[-1]), "mean": r(sum(s) / n), "median": r(median)}
