from collections import Counter


class WordTally:
    def __init__(self):
        self.counts = Counter()

    def add(self, word):
        self.counts[word] += 1

    def top(self, n):
        items = sorted(self.counts.items(), key=lambda kv: (-kv[1], kv[0]))
        return items[:n]
