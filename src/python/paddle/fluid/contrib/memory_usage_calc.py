"""paddle.fluid.contrib.memory_usage_calc (1.2-1.6): `memory_usage`, an
estimate of how much memory a program's global block needs for a batch
size, so users can pick the largest batch that fits on a GPU."""
from __future__ import print_function

from .. import core
from ..framework import Program

__all__ = ["memory_usage"]

# Bytes per element of each dtype 1.x counted; any other dtype (an
# int8 tensor, say) raised KeyError there, as it does here.
dtype_to_size = {
    core.VarDesc.VarType.FP16: 2,
    core.VarDesc.VarType.FP32: 4,
    core.VarDesc.VarType.FP64: 8,
    core.VarDesc.VarType.INT16: 2,
    core.VarDesc.VarType.INT32: 4,
    core.VarDesc.VarType.INT64: 8,
    core.VarDesc.VarType.BOOL: 1,
    core.VarDesc.VarType.UINT8: 1,
}

DEBUG = False


def _var_bytes(var, batch_size):
    count = 1
    seen_negative = False
    for dim in var.shape:
        if dim >= 0:
            count *= dim
            continue
        # one unknown dimension, the batch one, times batch_size
        if seen_negative:
            raise ValueError("Var %s has more than one negtive dim." % (var.name))
        seen_negative = True
        count *= batch_size * (-dim)
    return count * dtype_to_size[var.dtype]


def memory_usage(program, batch_size):
    """Sums the bytes of every LoD tensor an op of `program`'s global
    block writes (each once), a `-1` dimension counted as `batch_size`;
    returns `(lower, upper, unit)`: that sum in B, KB or MB, plus 5% and
    plus 10%."""
    if not isinstance(program, Program):
        raise TypeError(
            "Calculating Memory Usage requires Program as its Parameter."
            "But you passed in %s" % (type(program)))
    if batch_size <= 0:
        raise ValueError("The batch size need to be positive.")

    block = program.global_block()
    total = 0.0
    counted = set(["@EMPTY@"])
    for op in block.ops:
        for name in op.output_arg_names:
            if name in counted:
                continue
            counted.add(name)
            var = block.vars[name]
            if var.type != core.VarDesc.VarType.LOD_TENSOR:
                continue
            size = _var_bytes(var, batch_size)
            if DEBUG:
                print("%s memory usage: %d" % (var.name, size))
            total += size
    if DEBUG:
        print("total memory usage: %.2f" % (total))

    unit = "B"
    if total > 1024:
        total /= 1024
        unit = "KB"
        if total > 1024:
            total /= 1024
            unit = "MB"
    return total * 1.05, total * 1.1, unit
