import pytest
def test_normalises_in_place():
    d = {"a": 1, "b": 3}
    ref = d
    assert normalise_weights(d) is None
    assert d is ref
    assert d == {"a": 0.25, "b": 0.75}
def test_keys_unchanged():
    d = {"z": 2.0, "x": 2.0, "y": 4.0}
    normalise_weights(d)
    assert list(d) == ["z", "x", "y"]
    assert d["z"] == pytest.approx(0.25) and d["y"] == pytest.approx(0.5)
    assert sum(d.values()) == pytest.approx(1.0)
def test_zero_total():
    with pytest.raises(ValueError):
        normalise_weights({"a": 0, "b": 0})
