# A context manager whose __exit__ returns True when no exception is in
# flight (as the 2019 transformer's wrap_layer_with_block guard did): a
# return, break or continue inside its block still leaves as written.
class Guard(object):
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.log.append("exit %s" % (exc_type.__name__ if exc_type else None))
        return True


def first_even(values, log):
    for v in values:
        with Guard(log):
            if v % 2:
                continue
            if v > 10:
                break
            return v
    return -1


def swallow(log):
    with Guard(log):
        raise ValueError("suppressed")
    return "after"


log = []
print(first_even([3, 5, 8, 9], log), first_even([1, 12], log), swallow(log))
print(log)
