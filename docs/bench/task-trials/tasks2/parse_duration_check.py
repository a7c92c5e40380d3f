def test_full():
    assert parse_duration("1h30m15s") == 5415

def test_minutes_only():
    assert parse_duration("45m") == 2700

def test_hours_and_seconds():
    assert parse_duration("2h5s") == 7205

def test_multi_digit():
    assert parse_duration("120s") == 120
    assert parse_duration("10h") == 36000

def test_empty():
    assert parse_duration("") == 0
