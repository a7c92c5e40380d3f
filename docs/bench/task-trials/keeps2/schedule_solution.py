def schedule(jobs):
    # jobs: list of (name, priority) tuples; lower priority number runs first
    return [name for name, _ in sorted(jobs, key=lambda j: j[1])]
