import pytest

def test_add_and_count():
    inv = Inventory()
    inv.add("apple", 3)
    inv.add("apple", 2)
    assert inv.count("apple") == 5
    assert inv.count("pear") == 0

def test_remove_too_many_raises_and_keeps_state():
    inv = Inventory()
    inv.add("nail", 4)
    with pytest.raises(ValueError):
        inv.remove("nail", 5)
    assert inv.count("nail") == 4
    with pytest.raises(ValueError):
        inv.remove("screw", 1)

def test_items_sorted_and_zero_dropped():
    inv = Inventory()
    inv.add("pear", 1)
    inv.add("apple", 2)
    inv.add("fig", 3)
    inv.remove("fig", 3)
    assert inv.items() == [("apple", 2), ("pear", 1)]
    assert inv.count("fig") == 0

def test_remove_exact():
    inv = Inventory()
    inv.add("a", 2)
    inv.remove("a", 1)
    inv.remove("a", 1)
    assert inv.count("a") == 0
    assert inv.items() == []
