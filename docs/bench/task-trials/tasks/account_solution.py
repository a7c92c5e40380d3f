class Account:
    def __init__(self, owner):
        self.owner = owner
        self.balance = 0
        self._history = []

    def deposit(self, amount):
        if amount <= 0:
            raise ValueError(amount)
        self.balance += amount
        self._history.append(("deposit", amount))
        return self.balance

    def withdraw(self, amount):
        if amount <= 0 or amount > self.balance:
            raise ValueError(amount)
        self.balance -= amount
        self._history.append(("withdraw", amount))
        return self.balance

    def history(self):
        return list(self._history)
