from collections import deque


class Queue:
    def __init__(self):
        self._items = deque()

    def enqueue(self, x):
        self._items.append(x)

    def dequeue(self):
        if not self._items:
            raise IndexError("empty")
        return self._items.popleft()

    def peek(self):
        if not self._items:
            raise IndexError("empty")
        return self._items[0]

    def __len__(self):
        return len(self._items)
