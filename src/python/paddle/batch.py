"""paddle.batch: a reader of minibatches (lists of samples) over a reader
of samples, as 1.x's `batch.py`.

A reader is a function that returns an iterable of samples (usually a
generator function); a decorator takes readers and returns a new one.
"""

__all__ = ["batch"]


def _check_reader(reader, decorator):
    """Paddle would only fail when the decorated reader is called; passing
    the reader's result instead of the reader is common enough to say so at
    the decorator's call."""
    if not callable(reader):
        raise TypeError(
            "%s() takes a reader, a function that returns the samples (a generator "
            "function), not a %s object; pass the reader itself, without calling it: "
            "paddle.batch(train_reader, 20), not paddle.batch(train_reader(), 20)"
            % (decorator, type(reader).__name__))


def batch(reader, batch_size, drop_last=False):
    """Groups `reader`'s samples in lists of `batch_size`; the last, shorter
    list is given too unless `drop_last`."""
    _check_reader(reader, "batch")
    batch_size = int(batch_size)
    if batch_size <= 0:
        raise ValueError("batch_size should be a positive integer value, "
                         "but got batch_size=%d" % batch_size)

    def batch_reader():
        b = []
        for instance in reader():
            b.append(instance)
            if len(b) == batch_size:
                yield b
                b = []
        if not drop_last and b:
            yield b

    return batch_reader
