def test_basic():
    assert mask_email("john@example.com") == "j**n@example.com"

def test_long():
    assert mask_email("alexander@mail.org") == "a*******r@mail.org"

def test_three_chars():
    assert mask_email("bob@x.io") == "b*b@x.io"

def test_short_unchanged():
    assert mask_email("jo@x.io") == "jo@x.io"
    assert mask_email("a@x.io") == "a@x.io"

def test_domain_untouched():
    assert mask_email("anna.lee@sub.domain.co") == "a******e@sub.domain.co"
