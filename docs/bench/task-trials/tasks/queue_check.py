import pytest
def test_all():
    q = Queue()
    assert len(q) == 0
    with pytest.raises(IndexError):
        q.dequeue()
    with pytest.raises(IndexError):
        q.peek()
    q.enqueue(1); q.enqueue(2)
    assert q.peek() == 1 and len(q) == 2
    assert q.dequeue() == 1 and q.dequeue() == 2
    with pytest.raises(IndexError):
        q.dequeue()
