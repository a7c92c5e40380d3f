def test_example():
    assert human_size(1536) == '1.5 KB'

def test_bytes():
    assert human_size(0) == '0 B'
    assert human_size(1023) == '1023 B'

def test_boundaries():
    assert human_size(1024) == '1.0 KB'
    assert human_size(1024 ** 2) == '1.0 MB'
    assert human_size(1024 ** 3) == '1.0 GB'

def test_gb_is_largest_unit():
    assert human_size(2048 * 1024 ** 3) == '2048.0 GB'
