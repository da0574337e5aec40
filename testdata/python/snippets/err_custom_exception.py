# Uncaught custom exception class defined in __main__ with a message, raised in a method.
class DataError(Exception):
    pass


class Reader:
    def read(self, path):
        raise DataError("cannot read %s" % path)


Reader().read("train.txt")
