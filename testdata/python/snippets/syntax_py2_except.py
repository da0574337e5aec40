# A 2018 data script written for Python 2: its first error under Python 3
# is the old form of catching an exception.
import os


def read_lines(path):
    try:
        return open(path).readlines()
    except (IOError, OSError), err:
        print("cannot read %s: %s" % (path, err))
        return []


print(len(read_lines(os.devnull)))
