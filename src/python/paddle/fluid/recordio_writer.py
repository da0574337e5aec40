"""1.x's `fluid.recordio_writer`: a Python reader of batches written to
RecordIO files through a DataFeeder, for `fluid.layers.open_files` /
`open_recordio_file` to read (the format is `recordio_core`'s)."""
import contextlib
import os

from . import core

__all__ = ["convert_reader_to_recordio_file", "convert_reader_to_recordio_files"]


@contextlib.contextmanager
def create_recordio_writer(filename, compressor=core.RecordIOWriter.Compressor.Snappy,
                           max_num_records=1000):
    writer = core.RecordIOWriter(filename, compressor, max_num_records)
    yield writer
    writer.close()


def _write(filename, batches, feeder, feed_order, compressor, max_num_records):
    """Writes each batch as one record, the tensors `feeder.feed(batch)`
    makes in `feed_order` (the feeder's order when None); how many."""
    names = feeder.feed_names if feed_order is None else feed_order
    count = 0
    with create_recordio_writer(filename, compressor, max_num_records) as writer:
        for batch in batches:
            slots = feeder.feed(batch)
            for name in names:
                writer.append_tensor(slots[name])
            writer.complete_append_tensor()
            count += 1
    return count


def convert_reader_to_recordio_file(filename, reader_creator, feeder,
                                    compressor=core.RecordIOWriter.Compressor.Snappy,
                                    max_num_records=1000, feed_order=None):
    """Writes the batches of `reader_creator()` to the RecordIO file
    `filename`, a record each (`max_num_records` records a chunk).
    Returns the number of records."""
    return _write(filename, reader_creator(), feeder, feed_order, compressor,
                  max_num_records)


def convert_reader_to_recordio_files(filename, batch_per_file, reader_creator, feeder,
                                     compressor=core.RecordIOWriter.Compressor.Snappy,
                                     max_num_records=1000, feed_order=None):
    """`convert_reader_to_recordio_file` into files `NAME-00000.recordio`,
    `NAME-00001.recordio`, ... (`filename` must end in `.recordio`). As
    1.x: a file is written when batch number `batch_per_file` * k (k >= 1,
    counting from 0) arrives, holding the batches gathered since the last
    one (the first file `batch_per_file` + 1 of them); the batches after
    the last such number are not written. Returns the number of records
    written."""
    if feed_order is None:
        feed_order = feeder.feed_names
    stem, ext = os.path.splitext(filename)
    assert ext == ".recordio"
    pending, written, index = [], 0, 0
    for i, batch in enumerate(reader_creator()):
        pending.append(batch)
        if i >= batch_per_file and i % batch_per_file == 0:
            written += _write("%s-%05d%s" % (stem, index, ext), pending, feeder, feed_order,
                              compressor, max_num_records)
            pending, index = [], index + 1
    return written
