# Uncaught AssertionError with and without a message.
def check(shape):
    assert len(shape) == 2, "expected a 2-D shape, got %r" % (shape,)


check((3, 4))
print("first check passed")
check((1, 2, 3))
