def sort_by_length(words):
    words.sort(key=len)
