# Uncaught ZeroDivisionError from a nested call: traceback with the user's frames and source lines on stderr, exit code 1, earlier stdout kept.
def ratio(a, b):
    return a / b


def report(values):
    for v in values:
        print("ratio", ratio(10, v))


report([2, 5, 0, 1])
