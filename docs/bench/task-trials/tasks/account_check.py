import pytest
def test_all():
    a = Account("ann")
    assert a.deposit(50) == 50
    assert a.withdraw(20) == 30
    with pytest.raises(ValueError):
        a.withdraw(31)
    with pytest.raises(ValueError):
        a.deposit(0)
    with pytest.raises(ValueError):
        a.withdraw(-5)
    assert a.withdraw(30) == 0
    assert a.history() == [("deposit", 50), ("withdraw", 20), ("withdraw", 30)]
