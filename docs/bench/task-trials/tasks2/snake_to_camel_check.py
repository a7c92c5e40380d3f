def test_example():
    assert snake_to_camel('get__user_id') == 'getUserId'

def test_simple():
    assert snake_to_camel('max_value') == 'maxValue'

def test_single_word():
    assert snake_to_camel('count') == 'count'

def test_leading_trailing_underscores():
    assert snake_to_camel('_private_name_') == 'privateName'
    assert snake_to_camel('__init__') == 'init'
