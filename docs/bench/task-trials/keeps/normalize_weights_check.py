import pytest

def test_basic():
    assert normalize_weights({"a": 1, "b": 3}) == pytest.approx({"a": 0.25, "b": 0.75})
    assert normalize_weights({"x": 2, "y": 2, "z": 4}) == pytest.approx({"x": 0.25, "y": 0.25, "z": 0.5})

def test_single_key():
    assert normalize_weights({"only": 7.5}) == pytest.approx({"only": 1.0})

def test_already_normalised():
    assert normalize_weights({"a": 0.5, "b": 0.5}) == pytest.approx({"a": 0.5, "b": 0.5})

def test_same_keys():
    assert set(normalize_weights({"p": 1, "q": 2, "r": 3})) == {"p", "q", "r"}

def test_empty_raises():
    with pytest.raises(ValueError):
        normalize_weights({})

def test_zero_sum_raises():
    with pytest.raises(ValueError):
        normalize_weights({"a": 0, "b": 0})

def test_caller_dict_unchanged():
    w = {"a": 1, "b": 3}
    normalize_weights(w)
    assert w == {"a": 1, "b": 3}
    w = {"x": 2.0, "y": 6.0}
    result = normalize_weights(w)
    assert result is not w
    assert w == {"x": 2.0, "y": 6.0}
