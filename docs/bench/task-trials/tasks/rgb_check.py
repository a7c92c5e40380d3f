import pytest
def test_ok():
    assert parse_rgb('#ff8000') == (255, 128, 0)
    assert parse_rgb('#FFFFFF') == (255, 255, 255)
    assert parse_rgb('#000000') == (0, 0, 0)
def test_bad():
    for bad in ['ff8000', '#fff', '#ff80001', '#gg0000', '']:
        with pytest.raises(ValueError):
            parse_rgb(bad)
