"""paddle.reader's decorators, as 1.x's `reader/decorator.py`: each takes
readers (functions that return an iterable of samples) and returns a new
reader; nothing is read until the new reader is called.

`buffered` and `xmap_readers` read (and map) on threads, as Paddle's did.
Where Paddle's worker threads died on an exception and left the consumer
waiting forever, these hand the exception to the consumer, which raises it.
"""
import itertools
import json
import queue
import random
import threading

from ..batch import _check_reader

__all__ = [
    "cache", "map_readers", "buffered", "compose", "chain", "shuffle",
    "ComposeNotAligned", "firstn", "xmap_readers", "multiprocess_reader", "Fake",
]


def _check_readers(readers, decorator):
    for r in readers:
        _check_reader(r, decorator)


def cache(reader):
    """Reads `reader` once, now, and gives its samples from memory."""
    _check_reader(reader, "cache")
    all_data = tuple(reader())

    def cached_reader():
        for item in all_data:
            yield item

    return cached_reader


def map_readers(func, *readers):
    """`func(a, b, ...)` of the readers' samples taken side by side, up to
    the shortest reader."""
    _check_readers(readers, "map_readers")

    def mapped_reader():
        for e in map(func, *[r() for r in readers]):
            yield e

    return mapped_reader


def shuffle(reader, buf_size):
    """Fills a buffer of `buf_size` samples, shuffles it with Python's
    `random` and gives it out; the last, partial buffer is shuffled too."""
    _check_reader(reader, "shuffle")

    def shuffled_reader():
        buf = []
        for e in reader():
            buf.append(e)
            if len(buf) >= buf_size:
                random.shuffle(buf)
                for b in buf:
                    yield b
                buf = []
        if buf:
            random.shuffle(buf)
            for b in buf:
                yield b

    return shuffled_reader


def chain(*readers):
    """The samples of each reader in turn."""
    _check_readers(readers, "chain")

    def chained_reader():
        for e in itertools.chain(*[r() for r in readers]):
            yield e

    return chained_reader


class ComposeNotAligned(ValueError):
    pass


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


_MISSING = object()


def compose(*readers, check_alignment=True):
    """One sample of each reader side by side, flattened into one tuple
    (`(1, 2)`, `3` -> `(1, 2, 3)`). With `check_alignment`, readers of
    different lengths raise ComposeNotAligned; without it, the composed
    reader stops at the shortest."""
    _check_readers(readers, "compose")

    def composed_reader():
        rs = [r() for r in readers]
        if not check_alignment:
            for outputs in zip(*rs):
                yield sum(map(_as_tuple, outputs), ())
            return
        for outputs in itertools.zip_longest(*rs, fillvalue=_MISSING):
            if any(o is _MISSING for o in outputs):
                raise ComposeNotAligned("outputs of readers are not aligned.")
            yield sum(map(_as_tuple, outputs), ())

    return composed_reader


class _End(object):
    """What a worker thread puts in a queue when it is done."""


class _Failed(object):
    """What a worker thread puts in a queue when its reader or mapper
    raised: the consumer raises the exception."""

    def __init__(self, error):
        self.error = error


def buffered(reader, size):
    """Reads `reader` on a thread, up to `size` samples ahead."""
    _check_reader(reader, "buffered")

    def fill(samples, q):
        try:
            for d in samples:
                q.put(d)
        except BaseException as e:
            q.put(_Failed(e))
            return
        q.put(_End)

    def buffered_reader():
        q = queue.Queue(maxsize=size)
        t = threading.Thread(target=fill, args=(reader(), q))
        t.daemon = True
        t.start()
        while True:
            e = q.get()
            if e is _End:
                return
            if isinstance(e, _Failed):
                raise e.error
            yield e

    return buffered_reader


def firstn(reader, n):
    """The first `n` samples of `reader`."""
    _check_reader(reader, "firstn")

    def firstn_reader():
        # As Paddle's: the sample after the n-th is read, then dropped.
        for i, item in enumerate(reader()):
            if i == n:
                break
            yield item

    return firstn_reader


def xmap_readers(mapper, reader, process_num, buffer_size, order=False):
    """`mapper(sample)` of each sample, mapped on `process_num` threads with
    queues of `buffer_size`; in the reader's order if `order`, else as the
    threads finish."""
    _check_reader(reader, "xmap_readers")

    def read(in_q, out_q):
        try:
            for i, sample in enumerate(reader()):
                in_q.put((i, sample))
        except BaseException as e:
            out_q.put(_Failed(e))
        for _ in range(process_num):
            in_q.put(_End)

    def work(in_q, out_q):
        while True:
            item = in_q.get()
            if item is _End:
                out_q.put(_End)
                return
            i, sample = item
            try:
                out_q.put((i, mapper(sample)))
            except BaseException as e:
                out_q.put(_Failed(e))

    def xmapped_reader():
        in_q = queue.Queue(buffer_size)
        out_q = queue.Queue(buffer_size)
        threads = [threading.Thread(target=read, args=(in_q, out_q))]
        threads += [threading.Thread(target=work, args=(in_q, out_q))
                    for _ in range(process_num)]
        for t in threads:
            t.daemon = True
            t.start()
        pending = {}
        next_index = 0
        running = process_num
        while running:
            item = out_q.get()
            if item is _End:
                running -= 1
                continue
            if isinstance(item, _Failed):
                raise item.error
            if not order:
                yield item[1]
                continue
            pending[item[0]] = item[1]
            while next_index in pending:
                yield pending.pop(next_index)
                next_index += 1

    return xmapped_reader


def multiprocess_reader(readers, use_pipe=True, queue_size=1000):
    """1.5-1.6's: the samples of every reader in `readers` (a list), each
    read by its own worker. 1.6's workers were processes; fluidc's embedded
    Python has no working process pipes, so here they are threads, with 1.6's
    results: with `use_pipe` each sample goes through JSON as 1.6's pipes
    sent it (tuples become lists; a numpy array is refused) and the samples
    come one from each unfinished reader in turn, as 1.6 read its pipes;
    else they come as the workers read them (a queue of `queue_size`). A
    reader that raises, or gives None, makes the merged reader raise 1.6's
    ValueError (the cause chained)."""
    assert type(readers) is list and len(readers) > 0
    for r in readers:
        _check_reader(r, "multiprocess_reader")

    def read(reader, q, encode):
        try:
            for sample in reader():
                if sample is None:
                    raise ValueError("sample has None!")
                q.put(json.loads(json.dumps(sample)) if encode else sample)
        except BaseException as e:
            q.put(_Failed(e))
            return
        q.put(_End)

    def start(queues, encode):
        for reader, q in zip(readers, queues):
            t = threading.Thread(target=read, args=(reader, q, encode))
            t.daemon = True
            t.start()

    def pipe_reader():
        queues = [queue.Queue(queue_size) for _ in readers]
        start(queues, True)
        while queues:
            for q in list(queues):
                item = q.get()
                if item is _End:
                    queues.remove(q)
                elif isinstance(item, _Failed):
                    raise ValueError("multiprocess reader raises an exception") from item.error
                else:
                    yield item

    def queue_reader():
        q = queue.Queue(queue_size)
        start([q] * len(readers), False)
        running = len(readers)
        while running:
            item = q.get()
            if item is _End:
                running -= 1
            elif isinstance(item, _Failed):
                raise ValueError("multiprocess reader raises an exception") from item.error
            else:
                yield item

    return pipe_reader if use_pipe else queue_reader


class Fake(object):
    """A reader of one sample over and over: `Fake()(reader, n)` gives the
    first sample of `reader` `n` times (to time a model without reading)."""

    def __init__(self):
        self.data = None
        self.yield_num = 0

    def __call__(self, reader, yield_num):
        _check_reader(reader, "Fake")

        def fake_reader():
            if self.data is None:
                self.data = next(reader())
            while self.yield_num < yield_num:
                yield self.data
                self.yield_num += 1
            self.yield_num = 0

        return fake_reader
