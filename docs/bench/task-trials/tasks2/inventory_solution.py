class Inventory:
    def __init__(self):
        self.stock = {}

    def add(self, item, qty):
        self.stock[item] = self.stock.get(item, 0) + qty

    def remove(self, item, qty):
        have = self.stock.get(item, 0)
        if qty > have:
            raise ValueError(f"only {have} of {item!r} held")
        if have == qty:
            del self.stock[item]
        else:
            self.stock[item] = have - qty

    def count(self, item):
        return self.stock.get(item, 0)

    def items(self):
        return sorted(self.stock.items())
