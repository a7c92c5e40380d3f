def split_batches(queue, size):
    if size < 1:
        raise ValueError("size must be >= 1")
    return [queue[i:i + size] for i in range(0, len(queue), size)]
