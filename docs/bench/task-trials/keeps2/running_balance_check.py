import pytest
def test_values():
    txs = [{"id": 1, "amount": 10}, {"id": 2, "amount": -3}, {"id": 3, "amount": 5}]
    assert running_balance(txs) == [
        {"id": 1, "amount": 10, "balance": 10},
        {"id": 2, "amount": -3, "balance": 7},
        {"id": 3, "amount": 5, "balance": 12},
    ]
    assert running_balance([{"amount": 4}], opening=100) == [{"amount": 4, "balance": 104}]
def test_empty():
    assert running_balance([]) == []
def test_input_untouched():
    t1 = {"id": 1, "amount": 10}
    t2 = {"id": 2, "amount": -3}
    txs = [t1, t2]
    running_balance(txs, opening=50)
    assert txs == [{"id": 1, "amount": 10}, {"id": 2, "amount": -3}]
    assert txs[0] is t1 and txs[1] is t2
    assert "balance" not in t1 and "balance" not in t2
