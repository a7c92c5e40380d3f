class MinStack:
    def __init__(self):
        self._items = []

    def push(self, x):
        self._items.append(x)

    def pop(self):
        if not self._items:
            raise IndexError("empty")
        return self._items.pop()

    def top(self):
        if not self._items:
            raise IndexError("empty")
        return self._items[-1]

    def get_min(self):
        if not self._items:
            raise IndexError("empty")
        return min(self._items)
