"""paddle.fluid.lod_tensor: `create_lod_tensor` and
`create_random_int_lodtensor`, as 1.x's: LoDTensors built from data and
the lengths of its sequences (`recursive_seq_lens`, one list per level)."""
import numpy as np

from . import core

__all__ = ["create_lod_tensor", "create_random_int_lodtensor"]


def create_lod_tensor(data, recursive_seq_lens, place):
    """A LoDTensor of `data` (a numpy array, a LoDTensor, or a list of
    sequences of ints, which becomes one int64 column as in 1.x) whose
    sequences have the lengths `recursive_seq_lens`."""
    if isinstance(data, core.LoDTensor):
        return create_lod_tensor(np.array(data), recursive_seq_lens, place)
    if isinstance(data, list):
        lengths = [len(seq) for seq in data]
        assert [lengths] == recursive_seq_lens, "data and recursive_seq_lens do not match"
        flat = np.concatenate(data, axis=0).astype("int64")
        return create_lod_tensor(flat.reshape([len(flat), 1]), recursive_seq_lens, place)
    if isinstance(data, np.ndarray):
        # As 1.x: lengths that do not fit the data are refused by
        # set_recursive_sequence_lengths (EnforceNotMet).
        tensor = core.LoDTensor()
        tensor.set(data, place)
        tensor.set_recursive_sequence_lengths(recursive_seq_lens)
        assert tensor.has_valid_recursive_sequence_lengths(), "the provided lod info is invalid"
        return tensor
    raise TypeError("data should be either a LoDTensor, a Numpy array or a list")


def create_random_int_lodtensor(recursive_seq_lens, base_shape, place, low, high):
    """A LoDTensor of int64s drawn uniformly from [low, high] by numpy's
    global generator, of shape `[total length] + base_shape`."""
    assert isinstance(base_shape, list), "base_shape should be a list"
    overall_shape = [sum(recursive_seq_lens[-1])] + base_shape
    # 1.x drew with np.random.random_integers(low, high, shape), which is
    # randint(low, high + 1, shape): the same numbers.
    data = np.random.randint(low, high + 1, overall_shape).astype("int64")
    return create_lod_tensor(data, recursive_seq_lens, place)
