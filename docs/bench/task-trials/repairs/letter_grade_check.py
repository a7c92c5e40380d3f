def test_exactly_90():
    assert letter_grade(90) == "A"

def test_exactly_80():
    assert letter_grade(80) == "B"

def test_inside_bands():
    assert letter_grade(95) == "A"
    assert letter_grade(89.5) == "B"
    assert letter_grade(75) == "C"

def test_exactly_70():
    assert letter_grade(70) == "C"

def test_below_70():
    assert letter_grade(69.9) == "F"
    assert letter_grade(0) == "F"
