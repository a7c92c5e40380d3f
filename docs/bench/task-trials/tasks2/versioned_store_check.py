def test_versions_are_global():
    s = VersionedStore()
    assert s.set("a", 1) == 1
    assert s.set("b", 2) == 2
    assert s.set("a", 3) == 3

def test_get_current_and_missing():
    s = VersionedStore()
    s.set("a", "x")
    s.set("a", "y")
    assert s.get("a") == "y"
    assert s.get("zzz") is None

def test_get_at_version():
    s = VersionedStore()
    s.set("a", "v1")      # 1
    s.set("b", "other")   # 2
    s.set("a", "v3")      # 3
    assert s.get("a", 1) == "v1"
    assert s.get("a", 2) == "v1"
    assert s.get("a", 3) == "v3"
    assert s.get("a", 100) == "v3"

def test_before_first_write():
    s = VersionedStore()
    s.set("b", 0)         # 1
    s.set("a", 5)         # 2
    assert s.get("a", 1) is None
