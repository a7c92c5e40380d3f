import pytest
def test_values():
    assert schedule([("a", 2), ("b", 1), ("c", 3)]) == ["b", "a", "c"]
    assert schedule([("only", 5)]) == ["only"]
    assert schedule([("x", 1), ("y", 0), ("z", 1), ("w", 0)]) == ["y", "w", "x", "z"]
def test_empty():
    assert schedule([]) == []
def test_jobs_intact():
    jobs = [("build", 2), ("lint", 1), ("deploy", 3), ("test", 1)]
    schedule(jobs)
    assert jobs == [("build", 2), ("lint", 1), ("deploy", 3), ("test", 1)]
