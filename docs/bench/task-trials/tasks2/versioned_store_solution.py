import bisect

class VersionedStore:
    def __init__(self):
        self.version = 0
        self.history = {}

    def set(self, key, value) -> int:
        self.version += 1
        self.history.setdefault(key, []).append((self.version, value))
        return self.version

    def get(self, key, version=None):
        hist = self.history.get(key)
        if not hist:
            return None
        if version is None:
            return hist[-1][1]
        versions = [v for v, _ in hist]
        i = bisect.bisect_right(versions, version)
        return hist[i - 1][1] if i else None
