import re


def parse_rgb(s):
    if not isinstance(s, str) or re.fullmatch(r"#[0-9a-fA-F]{6}", s) is None:
        raise ValueError(s)
    return tuple(int(s[i:i + 2], 16) for i in (1, 3, 5))
