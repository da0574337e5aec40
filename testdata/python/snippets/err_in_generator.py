# Uncaught exception raised inside a generator while a for loop consumes it: the traceback shows the loop line and the generator frame.
def reader():
    for i in range(3):
        if i == 2:
            raise RuntimeError("reader failed at %d" % i)
        yield i


for sample in reader():
    print("sample", sample)
