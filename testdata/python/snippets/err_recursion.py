# Uncaught RecursionError: CPython prints the repeated frame three times then "[Previous line repeated N more times]".
def down(n):
    return down(n + 1)


down(0)
