def test_limit_within_window():
    r = RateLimiter(2, 10)
    assert r.allow(0) is True
    assert r.allow(1) is True
    assert r.allow(2) is False

def test_window_boundary_exclusive():
    r = RateLimiter(1, 10)
    assert r.allow(0) is True
    assert r.allow(9.5) is False
    assert r.allow(10) is True

def test_rejected_calls_do_not_count():
    r = RateLimiter(1, 5)
    assert r.allow(0) is True
    assert r.allow(3) is False
    assert r.allow(5) is True
    assert r.allow(9) is False
    assert r.allow(10) is True

def test_same_timestamp():
    r = RateLimiter(3, 1)
    assert [r.allow(4) for _ in range(4)] == [True, True, True, False]
