"""1.6's `layers/utils.py`: nested structures (lists, tuples,
namedtuples and dicts of Variables) flattened, rebuilt and mapped, as the
RNN cell API (`layers.rnn`, `dynamic_decode`) passes states and outputs
of any structure a cell or decoder chooses. Dicts go by sorted key, as in
1.6, so that two dicts with the same keys line up."""
import collections.abc

__all__ = []


def is_sequence(seq):
    """A list, tuple (namedtuple too) or dict is a structure; a string
    or anything else is a leaf."""
    if isinstance(seq, dict):
        return True
    return isinstance(seq, collections.abc.Sequence) and not isinstance(seq, str)


def _items(seq):
    if isinstance(seq, dict):
        return [seq[k] for k in sorted(seq)]
    return list(seq)


def _rebuild(instance, args):
    """`args` in the structure of `instance`'s own level."""
    if isinstance(instance, dict):
        # the values by sorted key, the keys in the instance's own order
        values = dict(zip(sorted(instance), args))
        return type(instance)((k, values[k]) for k in instance)
    if isinstance(instance, tuple) and hasattr(instance, "_fields"):
        return type(instance)(*args)
    return type(instance)(args)


def flatten(nest):
    """The leaves of `nest`, depth first; a leaf alone is `[nest]`."""
    if not is_sequence(nest):
        return [nest]
    flat = []
    for item in _items(nest):
        flat.extend(flatten(item))
    return flat


def _count(nest):
    return len(flatten(nest))


def _pack(structure, flat, index):
    packed = []
    for item in _items(structure):
        if is_sequence(item):
            index, child = _pack(item, flat, index)
            packed.append(_rebuild(item, child))
        else:
            packed.append(flat[index])
            index += 1
    return index, packed


def pack_sequence_as(structure, flat_sequence):
    """`flat_sequence` in the structure of `structure`."""
    if not is_sequence(flat_sequence):
        raise TypeError("flat_sequence must be a sequence")
    if not is_sequence(structure):
        if len(flat_sequence) != 1:
            raise ValueError("Structure is a scalar but len(flat_sequence) == %d > 1"
                             % len(flat_sequence))
        return flat_sequence[0]
    if _count(structure) != len(flat_sequence):
        raise ValueError(
            "Could not pack sequence. Structure had %d elements, but flat_sequence had %d "
            "elements.  Structure: %s, flat_sequence: %s."
            % (_count(structure), len(flat_sequence), structure, flat_sequence))
    return _rebuild(structure, _pack(structure, flat_sequence, 0)[1])


def assert_same_structure(nest1, nest2, check_types=True):
    """Raises ValueError (TypeError for different kinds of sequence
    with `check_types`) unless the two nest alike."""
    if is_sequence(nest1) != is_sequence(nest2):
        raise ValueError("The two structures don't have the same nested structure.\n\n"
                         "First structure: %s\n\nSecond structure: %s." % (nest1, nest2))
    if not is_sequence(nest1):
        return
    if check_types and type(nest1) != type(nest2):
        raise TypeError("The two structures don't have the same sequence type. First "
                        "structure has type %s, while second structure has type %s."
                        % (type(nest1), type(nest2)))
    items1, items2 = _items(nest1), _items(nest2)
    if len(items1) != len(items2):
        raise ValueError("The two structures don't have the same number of elements. First "
                         "structure: %s, second structure: %s." % (nest1, nest2))
    for a, b in zip(items1, items2):
        assert_same_structure(a, b, check_types)


def map_structure(func, *structure):
    """`func` over the leaves of structures that nest alike, in the
    structure of the first."""
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=False)
    flat = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*leaves) for leaves in zip(*flat)])
