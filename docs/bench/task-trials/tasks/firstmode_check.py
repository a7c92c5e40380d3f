def test_ok():
    assert most_common_char('abracadabra') == 'a'
    assert most_common_char('bbaa') == 'b'
    assert most_common_char('abab') == 'a'
    assert most_common_char('') == ''
    assert most_common_char('aAA') == 'A'
    assert most_common_char('xyzzy') == 'y'
