"""`fluid.transpiler.InferenceTranspiler` (1.0-1.3).

1.x's `InferenceTranspiler().transpile(program, place, scope=None)`
rewrote an inference program in place to run faster: each conv2d followed
by a batch_norm (directly or through its bias `elementwise_add`) got the
batch norm's scale and shift folded into its filter and bias, which it
wrote into `scope`, and the batch_norm op was removed; with
`FLAGS_use_mkldnn` set it also fused convolutions with their bias, relu
and residual add, and batch norms with relu, through MKL-DNN attributes.
The fused program computes what the original computes, up to float
rounding (the 1.x book test checks it to 5 decimals).

fluidc keeps the program as it is, so it computes exactly the original's
values: its arguments are checked as 1.x checked them, and the program and
the scope are left unchanged. (Printing the program, or saving it as an
inference model, shows the batch_norm ops 1.x would have removed.)
"""
from .. import core
from ..executor import global_scope
from ..framework import Program

__all__ = ["InferenceTranspiler"]


class InferenceTranspiler(object):
    """`t = InferenceTranspiler(); t.transpile(program, place, scope=None)`."""

    def transpile(self, program, place, scope=None):
        """Checks its arguments as 1.x did; leaves `program` and `scope` as
        they are (see the module's note)."""
        if not isinstance(program, Program):
            raise TypeError("program should be as Program type")
        if not isinstance(place, (core.CPUPlace, core.CUDAPlace)):
            raise TypeError("place should be as CPUPlace/CUDAPlace type")
        if scope is None:
            scope = global_scope()
        if not isinstance(scope, core.Scope):
            raise TypeError("scope should be as Scope type or None")
