def mask_email(addr):
    local, _, domain = addr.rpartition('@')
    if len(local) <= 2:
        return addr
    return local[0] + '*' * (len(local) - 2) + local[-1] + '@' + domain
