def second_largest(nums):
    rest = list(nums)
    rest.remove(max(rest))
    return max(rest)
