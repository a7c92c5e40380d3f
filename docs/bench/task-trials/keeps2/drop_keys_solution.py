def drop_keys(record, keys):
    drop = set(keys)
    out = {}
    for k, v in record.items():
        if k in drop:
            continue
        out[k] = drop_keys(v, drop) if isinstance(v, dict) else v
    return out
