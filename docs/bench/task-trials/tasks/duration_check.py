import pytest
def test_ok():
    assert parse_duration('1h30m') == 5400
    assert parse_duration('45s') == 45
    assert parse_duration('2h5s') == 7205
    assert parse_duration('0m') == 0
def test_bad():
    for bad in ['', '30m1h', '5x', 'h', '1h1h', '1.5h']:
        with pytest.raises(ValueError):
            parse_duration(bad)
