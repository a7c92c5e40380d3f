import pytest
def test_values():
    assert drop_keys({"a": 1, "b": 2}, ["b"]) == {"a": 1}
    assert drop_keys({"a": {"pw": 1, "x": 2}, "pw": 3}, ["pw"]) == {"a": {"x": 2}}
    assert drop_keys({"a": {"b": {"c": 1, "d": 2}}}, ["d"]) == {"a": {"b": {"c": 1}}}
    assert drop_keys({"a": [1, 2], "b": 0}, ["b"]) == {"a": [1, 2]}
def test_missing_keys_ignored():
    assert drop_keys({"a": 1}, ["z"]) == {"a": 1}
    assert drop_keys({}, ["a"]) == {}
def test_input_untouched():
    rec = {"user": {"name": "x", "token": "t", "meta": {"token": 1, "k": 2}}, "token": "top", "n": 5}
    inner = rec["user"]
    drop_keys(rec, ["token", "n"])
    assert rec == {"user": {"name": "x", "token": "t", "meta": {"token": 1, "k": 2}}, "token": "top", "n": 5}
    assert rec["user"] is inner
    assert inner == {"name": "x", "token": "t", "meta": {"token": 1, "k": 2}}
