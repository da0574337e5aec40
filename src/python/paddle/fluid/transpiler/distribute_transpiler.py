"""paddle.fluid.transpiler.DistributeTranspiler (1.x): refused, with the way
fluidc trains on several machines instead.

1.x's transpiler rewrote a training program for parameter servers (the
default) or for NCCL2 collective training (`config.mode = "nccl2"`).
Paddle 3.3.1's CPU engine, which trains fluidc's programs, has no
parameter-server ops (send, recv, listen_and_serv), and its collective mode
is driven from outside the script: `fluidc distribute` makes the compiled
programs into trainer programs, and `paddle.distributed.launch` starts them
(docs/distributed.md). A script that calls `transpile` gets that answer
instead of a program that would train alone on each machine.
1.x's helper `slice_variable` (how the transpiler split variables into
blocks for the parameter servers) is here, as it computes no program.
"""

import math
from functools import reduce


class VarBlock:
    """1.x's shard of a variable: rows `offset * size ...` of `varname`,
    printed `name:offset:size`."""

    def __init__(self, varname, offset, size):
        self.varname = varname
        self.offset = offset
        self.size = size

    def __str__(self):
        return "%s:%d:%d" % (self.varname, self.offset, self.size)


def slice_variable(var_list, slice_count, min_block_size):
    """1.x's split of each variable into at most `slice_count` blocks of
    at least `min_block_size` elements, aligned to whole rows (dim 0);
    returns the blocks as `"name:block_id:size"` strings."""
    blocks = []
    for var in var_list:
        split_count = slice_count
        var_numel = reduce(lambda x, y: x * y, var.shape)
        max_pserver_count = int(math.floor(var_numel / float(min_block_size)))
        if max_pserver_count == 0:
            max_pserver_count = 1
        if max_pserver_count < slice_count:
            split_count = max_pserver_count
        block_size = int(math.ceil(var_numel / float(split_count)))
        if len(var.shape) >= 2:
            # whole rows: a multiple of the product of dims 1..
            dim1 = reduce(lambda x, y: x * y, var.shape[1:])
            remains = block_size % dim1
            if remains != 0:
                block_size += dim1 - remains
        split_count = int(math.ceil(var_numel / float(block_size)))
        for block_id in range(split_count):
            curr_block_size = min(block_size, var_numel - block_id * block_size)
            blocks.append(str(VarBlock(var.name, block_id, curr_block_size)))
    return blocks


class DistributeTranspilerConfig(object):
    """1.x's settings for DistributeTranspiler; kept so that scripts that
    build one before calling `transpile` reach the explanation."""

    slice_var_up = True
    split_method = None
    min_block_size = 8192
    enable_dc_asgd = False
    mode = "pserver"
    print_log = False
    wait_port = True


class DistributeTranspiler(object):
    def __init__(self, config=None):
        self.config = config if config is not None else DistributeTranspilerConfig()

    def transpile(self, trainer_id, program=None, pservers="127.0.0.1:6174",
                  trainers=1, sync_mode=True, startup_program=None,
                  current_endpoint="127.0.0.1:6174"):
        mode = getattr(self.config, "mode", "pserver")
        raise NotImplementedError(
            "DistributeTranspiler (%s mode) is not supported by fluidc: Paddle 3.3.1, "
            "the engine that trains fluidc's programs, has no parameter-server ops on CPU, "
            "and collective training is set up outside the script. Compile the script "
            "(fluidc compile train.py -o main.pb --startup-out startup.pb), then "
            "`fluidc distribute main.pb --startup startup.pb --nranks N -o DIR` and "
            "`python -m paddle.distributed.launch --nproc_per_node N DIR/train.py ...` "
            "(docs/distributed.md)" % mode)
