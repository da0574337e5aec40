"""1.6's `distributed_batch_reader`: each trainer's share of one batch
reader, for data-parallel training where every trainer reads the same
data."""
from __future__ import print_function

import os

__all__ = ["distributed_batch_reader"]


def distributed_batch_reader(batch_reader):
    """This trainer's batches of `batch_reader` when PADDLE_TRAINERS_NUM
    trainers (read when decorating; 1 by default) run, this one
    PADDLE_TRAINER_ID: of each run of that many batches, the one at its
    id; a last, incomplete run is dropped. A single trainer reads every
    batch. With more than one, the reader prints its share's line on
    stdout first, as 1.6's did."""
    trainers_num = int(os.environ.get('PADDLE_TRAINERS_NUM', 1))
    trainer_id = int(os.getenv("PADDLE_TRAINER_ID", 0))
    assert trainer_id < trainers_num

    def reader():
        if trainers_num > 1:
            print("start data reader (trainers_num: {}, trainer_id: {})".format(
                trainers_num, trainer_id))
        mine, seen = None, 0
        for data in batch_reader():
            if trainers_num == 1:
                yield data
                continue
            if seen == trainer_id:
                mine = data
            seen += 1
            if seen == trainers_num:
                assert mine is not None, "train data should not be None."
                yield mine
                mine, seen = None, 0

    return reader
