def test_flat():
    assert merge_config({"a": 1, "b": 2}, {"b": 3, "c": 4}) == {"a": 1, "b": 3, "c": 4}
    assert merge_config({}, {"x": 1}) == {"x": 1}
    assert merge_config({"x": 1}, {}) == {"x": 1}

def test_nested_merge():
    base = {"db": {"host": "localhost", "port": 5432}, "debug": False}
    override = {"db": {"port": 6543}, "debug": True}
    assert merge_config(base, override) == {
        "db": {"host": "localhost", "port": 6543},
        "debug": True,
    }

def test_deeply_nested():
    base = {"a": {"b": {"c": 1, "d": 2}}}
    override = {"a": {"b": {"d": 3, "e": 4}}}
    assert merge_config(base, override) == {"a": {"b": {"c": 1, "d": 3, "e": 4}}}

def test_non_dict_replaces_dict():
    assert merge_config({"log": {"level": "info"}}, {"log": None}) == {"log": None}
    assert merge_config({"log": "off"}, {"log": {"level": "debug"}}) == {"log": {"level": "debug"}}

def test_inputs_unchanged():
    base = {"db": {"host": "localhost", "port": 5432}, "debug": False,
            "a": {"b": {"c": 1}}}
    override = {"db": {"port": 6543, "user": "me"}, "debug": True,
                "a": {"b": {"d": 2}}, "new": 1}
    merge_config(base, override)
    assert base == {"db": {"host": "localhost", "port": 5432}, "debug": False,
                    "a": {"b": {"c": 1}}}
    assert override == {"db": {"port": 6543, "user": "me"}, "debug": True,
                        "a": {"b": {"d": 2}}, "new": 1}

def test_returns_new_dict():
    base = {"a": 1}
    result = merge_config(base, {"b": 2})
    assert result is not base
