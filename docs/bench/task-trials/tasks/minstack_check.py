import pytest
def test_all():
    s = MinStack()
    for m in (s.pop, s.top, s.get_min):
        with pytest.raises(IndexError):
            m()
    s.push(3); s.push(1); s.push(2)
    assert s.top() == 2 and s.get_min() == 1
    assert s.pop() == 2
    assert s.pop() == 1
    assert s.get_min() == 3
