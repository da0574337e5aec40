"""paddle.fluid.incubate.data_generator: 1.5-1.6's data generators, the
scripts a Dataset's `pipe_command` runs (`python my_generator.py`): a
subclass writes `generate_sample(line)`, and `run_from_stdin()` prints
each sample of each stdin line as the MultiSlot text the data feed parses
(per slot, `<n> v1 ... vn`). Under fluidc the script runs in the same VM,
its stdin and stdout a Dataset's (paddle/fluid/dataset.py)."""
import sys

__all__ = ['MultiSlotDataGenerator', 'MultiSlotStringDataGenerator']


class DataGenerator(object):
    """The base of the generators: samples gathered `batch_size_` (32) at
    a time through `generate_batch`, each printed by `_gen_str`."""

    def __init__(self):
        self._proto_info = None
        self.batch_size_ = 32

    def _set_line_limit(self, line_limit):
        if not isinstance(line_limit, int):
            raise ValueError("line_limit%s must be in int type" % type(line_limit))
        if line_limit < 1:
            raise ValueError("line_limit can not less than 1")
        self._line_limit = line_limit

    def set_batch(self, batch_size):
        """How many samples `generate_batch` gets at a time."""
        self.batch_size_ = batch_size

    def run_from_memory(self):
        """The samples of `generate_sample(None)` (data the generator
        makes itself), printed."""
        self._write_all(self.generate_sample(None)())

    def run_from_stdin(self):
        """Each line of stdin through `generate_sample`, printed."""
        def samples():
            for line in sys.stdin:
                for sample in self.generate_sample(line)():
                    yield sample
        self._write_all(samples())

    def _write_all(self, samples):
        batch = []
        for sample in samples:
            if sample is None:
                continue
            batch.append(sample)
            if len(batch) == self.batch_size_:
                self._write_batch(batch)
                batch = []
        if batch:
            self._write_batch(batch)

    def _write_batch(self, batch):
        for sample in self.generate_batch(batch)():
            sys.stdout.write(self._gen_str(sample))

    def _gen_str(self, line):
        raise NotImplementedError("pls use MultiSlotDataGenerator or PairWiseDataGenerator")

    def generate_sample(self, line):
        """To override: a function returning an iterator of samples, each
        `[(name, [feasign, ...]), ...]`."""
        raise NotImplementedError(
            "Please rewrite this function to return a list or tuple: " +
            "[(name, [feasign, ...]), ...] or ((name, [feasign, ...]), ...)")

    def generate_batch(self, samples):
        """May be overridden (padding a batch, say): a function returning
        an iterator of the batch's samples; by default the samples."""
        def local_iter():
            for sample in samples:
                yield sample
        return local_iter


def _check_sample(line, example):
    if not isinstance(line, (list, tuple)):
        raise ValueError("the output of process() must be in list or tuple type" + example)


class MultiSlotStringDataGenerator(DataGenerator):
    """Samples of strings, printed as they are: `[("words", ["1926",
    "08"]), ("label", ["1"])]` prints `2 1926 08 1 1`."""

    def _gen_str(self, line):
        _check_sample(line, "Examples: [('words', ['1926', '08', '17']), ('label', ['1'])]")
        return " ".join(" ".join([str(len(elements))] + list(elements))
                        for _, elements in line) + "\n"


class MultiSlotDataGenerator(DataGenerator):
    """Samples of ints and floats: `[("words", [1926, 8]), ("label",
    [1])]` prints `2 1926 8 1 1`. The first sample fixes the slot names
    (later ones must have the same in the same order); a slot is "float"
    once a float is seen in it, "uint64" before."""

    def _gen_str(self, line):
        _check_sample(line, "Example: [('words', [1926, 08, 17]), ('label', [1])]")
        first = self._proto_info is None
        if first:
            self._proto_info = []
        elif len(line) != len(self._proto_info):
            raise ValueError("the complete field set of two given line are inconsistent.")
        parts = []
        for index, (name, elements) in enumerate(line):
            if not isinstance(name, str):
                raise ValueError("name%s must be in str type" % type(name))
            if not isinstance(elements, list):
                raise ValueError("elements%s must be in list type" % type(elements))
            if not elements:
                raise ValueError("the elements of each field can not be empty, you need "
                                 "padding it in process().")
            if first:
                self._proto_info.append((name, "uint64"))
            elif name != self._proto_info[index][0]:
                raise ValueError("the field name of two given line are not match: require<%s>, "
                                 "get<%s>." % (self._proto_info[index][0], name))
            parts.append(str(len(elements)))
            for elem in elements:
                # The first sample's values are all checked; a later one's
                # until its slot is known to be "float" (as 1.x checked).
                if first or self._proto_info[index][1] != "float":
                    if isinstance(elem, float):
                        self._proto_info[index] = (name, "float")
                    elif not isinstance(elem, int):
                        raise ValueError("the type of element%s must be in int or float"
                                         % type(elem))
                parts.append(str(elem))
        return " ".join(parts) + "\n"
