import pytest
def test_ok():
    assert [weekday_name(i) for i in range(7)] == ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
def test_bad():
    for bad in [7, -1, 100]:
        with pytest.raises(ValueError):
            weekday_name(bad)
