"""The fluid2018 shim's 1.5-1.6 Dataset API over Paddle 3.3.1, which still
ships it as `paddle.base.DatasetFactory` (1.x's Python over its C++ data
feeds) and `Executor.train_from_dataset`:

- `fluid.DatasetFactory` / `fluid.InMemoryDataset` / `fluid.QueueDataset`
  are 3.3.1's classes, except that a `python SCRIPT ARGS...` pipe command
  runs SCRIPT with this CPython under run_with_paddle.py, so the script's
  `import paddle.fluid.incubate.data_generator` finds the shim's (the
  data feed runs the command in a shell, where `python` may be another
  Python, without `paddle.fluid`).
- `fluid.incubate.data_generator` is 3.3.1's
  `paddle.distributed.fleet.data_generator` (1.6's Python).
- `Executor.train_from_dataset` / `infer_from_dataset` run 3.3.1's own.
  Its trainer prints the fetched variables on the C++ stdout as
  `time: [...], batch: [N], info[numel]:[v1 v2 ...]`; 1.5-1.6 printed
  each as `info\\tname\\t` and the LoDTensor (its LoD, dims, layout, dtype
  and data), one block a variable. That stdout is caught (fd 1) and each
  of its lines rewritten in 1.6's form: the values as 3.3.1 printed them
  (C++'s `<<`, as 1.6's), the dims the variable's declared shape with
  its -1 what the values leave, the dtype the declared one. A LoD
  variable is refused: 3.3.1 does not print the LoD.
- `get_shuffle_data_size` without the line 3.3.1 prints (1.6 printed none).
- `fluid.dataset.FileInstantDataset` and `fluid.executor.FetchHandler`
  are 3.3.1's (1.6's Python; 3.3.1's CPU build, as 1.6's, has no
  MultiSlotFileInstantDataFeed to train one with).
- No `fluid.io.DataLoader.from_dataset`: 3.3.1's takes a
  paddle.distributed dataset only, and its `core.IterableDatasetWrapper`
  yields no batch from a 1.x one.
"""

import contextlib
import io
import os
import re
import shlex
import sys
import tempfile
from pathlib import Path

import numpy

import paddle
from paddle.base import framework

_RUNNER = Path(__file__).resolve().with_name("run_with_paddle.py")


def _python_script_command(pipe_command):
    """`python SCRIPT ARGS...` as this CPython running SCRIPT under
    run_with_paddle.py; another command as it is."""
    argv = shlex.split(pipe_command)
    if argv and os.path.basename(argv[0]).startswith("python"):
        args = [a for a in argv[1:] if a != "-u"]
        return " ".join(shlex.quote(a) for a in [sys.executable, str(_RUNNER)] + args)
    return pipe_command


def _classes():
    from paddle.base import dataset as base_dataset

    class InMemoryDataset(base_dataset.InMemoryDataset):
        def set_pipe_command(self, pipe_command):
            super().set_pipe_command(_python_script_command(pipe_command))

        def get_shuffle_data_size(self, fleet=None):
            with contextlib.redirect_stdout(io.StringIO()):
                return super().get_shuffle_data_size(fleet)

    class QueueDataset(base_dataset.QueueDataset):
        def set_pipe_command(self, pipe_command):
            super().set_pipe_command(_python_script_command(pipe_command))

    return {"InMemoryDataset": InMemoryDataset, "QueueDataset": QueueDataset,
            "FileInstantDataset": base_dataset.FileInstantDataset}


_CLASSES = None


class DatasetFactory:
    def create_dataset(self, datafeed_class="QueueDataset"):
        cls = _CLASSES.get(datafeed_class)
        if cls is None:
            raise ValueError("datafeed class %s does not exist" % datafeed_class)
        return cls()


# The C++ type names 1.6 printed as a tensor's dtype.
_CPP_TYPES = {"float32": "float", "float64": "double", "int32": "int", "int64": "int64_t",
              "bool": "bool", "uint8": "uint8_t", "int16": "int16_t", "int8": "int8_t"}
_LINE = re.compile(r"^time: \[[^\]]*\], batch: \[\d+\], (.*)$")


def _as_1x(rest, infos, variables):
    """3.3.1's fetch line's variables (after its time and batch) as 1.6
    printed them."""
    out = []
    for i, (info, var) in enumerate(zip(infos, variables)):
        head = re.match(re.escape(info) + r"\[(\d+)\]:\[([^\]]*)\]", rest)
        if head is None:
            raise RuntimeError("unexpected fetch line from Paddle: %r" % rest)
        numel, data = int(head.group(1)), head.group(2)
        rest = rest[head.end():]
        if i + 1 < len(infos):
            assert rest.startswith(", "), rest
            rest = rest[2:]
        if var.lod_level:
            raise NotImplementedError("train_from_dataset fetch of %s: Paddle 3.3.1 does not "
                                      "print a LoD variable's LoD" % var.name)
        shape = list(var.shape)
        known = int(numpy.prod([d for d in shape if d >= 0])) if shape else 1
        dims = [numel // known if d < 0 else d for d in shape]
        dtype = numpy.dtype(paddle.base.data_feeder.convert_dtype(var.dtype)).name
        out.append("%s\t%s\t\tlod: {}\n\tdim: %s\n\tlayout: NCHW\n\tdtype: %s\n\tdata: [%s]\n\t"
                   % (info, var.name, ", ".join(str(d) for d in dims), _CPP_TYPES[dtype], data))
    return out


def _from_dataset(method):
    def run(self, program=None, dataset=None, scope=None, thread=0, debug=False,
            fetch_list=None, fetch_info=None, print_period=100, fetch_handler=None):
        import paddle_fluid_shim as shim
        program = framework.default_main_program() if program is None else program
        if isinstance(program, paddle.static.CompiledProgram):
            program = program._program
        fetch_list = [] if fetch_list is None else list(fetch_list)
        fetch_info = [] if fetch_info is None else list(fetch_info)
        if self.real is None:
            # Build mode: recorded as a run feeding the dataset's slots.
            fetch = [v if isinstance(v, str) else v.name for v in fetch_list]
            slots = [s.name for s in dataset.proto_desc.multi_slot_desc.slots]
            shim.STATE.runs.append((program, slots, fetch))
            raise shim.StopBuild()
        block = program.global_block()
        variables = [block._find_var_recursive(v if isinstance(v, str) else v.name)
                     for v in fetch_list]
        # 1.6 and 3.3.1 write `<id(program)>_train_desc.prototxt` in the
        # working directory each call; fluidc writes none, nor does the shim.
        self.real._dump_debug_info = lambda program=None, trainer=None: None
        sys.stdout.flush()
        saved = os.dup(1)
        with tempfile.TemporaryFile() as caught:
            os.dup2(caught.fileno(), 1)
            try:
                getattr(self.real, method)(program, dataset, scope, thread, debug, fetch_list,
                                           fetch_info, print_period, fetch_handler)
            finally:
                # What a fetch_handler printed meanwhile is in the file too.
                sys.stdout.flush()
                os.dup2(saved, 1)
                os.close(saved)
            caught.seek(0)
            text = caught.read().decode()
        for line in text.splitlines():
            m = _LINE.match(line)
            if m:
                for block_text in _as_1x(m.group(1), fetch_info, variables):
                    print(block_text)
            elif not line.startswith("device worker program id: "):  # 3.3.1's, not 1.6's
                print(line)
        return None
    return run


def install(fluid, executor_class):
    global _CLASSES
    _CLASSES = _classes()
    from paddle.distributed.fleet.data_generator import data_generator as dg
    names = dict(DatasetFactory=DatasetFactory, **_CLASSES)
    fluid.dataset = types_module("paddle.fluid.dataset", **names)
    fluid.__dict__.update(names)
    generator = types_module("paddle.fluid.incubate.data_generator",
                             DataGenerator=dg.DataGenerator,
                             MultiSlotDataGenerator=dg.MultiSlotDataGenerator,
                             MultiSlotStringDataGenerator=dg.MultiSlotStringDataGenerator)
    fluid.incubate = types_module("paddle.fluid.incubate", data_generator=generator)
    from paddle.base import executor as base_executor
    fluid.executor.FetchHandler = base_executor.FetchHandler
    executor_class.train_from_dataset = _from_dataset("train_from_dataset")
    executor_class.infer_from_dataset = _from_dataset("infer_from_dataset")


def types_module(name, **attrs):
    import types
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    sys.modules[name] = module
    return module
