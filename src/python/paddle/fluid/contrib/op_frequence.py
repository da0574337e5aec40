"""paddle.fluid.contrib.op_frequence (1.2-1.6): `op_freq_statistic`, how
often each op type, and each pair of ops where the first feeds the
second, occurs in a program's global block."""
from __future__ import print_function

from collections import OrderedDict

from ..framework import Program

__all__ = ["op_freq_statistic"]


def _by_count(freq):
    # most frequent first; ties keep the order they were first seen in
    return sorted(freq.items(), key=lambda item: item[1], reverse=True)


def op_freq_statistic(program):
    """Returns `(uni_op_freq, adj_2_op_freq)`, lists of `(op_type, count)`
    and `("producer->consumer", count)`, most frequent first. Ops writing
    only parameters are not counted, nor edges from parameters; an input
    no earlier op wrote (a data layer's, say) is reported on stdout.

    1.x wrote this for Python 2 (`dict.has_key`, `iteritems`); fluidc
    gives what it computed there."""
    if not isinstance(program, Program):
        raise TypeError("The input type should be Porgram."
                        "But you passed in %s" % (type(program)))

    block = program.global_block()
    parameters = [p.name for p in program.blocks[0].all_parameters()]

    uni_op_freq = OrderedDict()
    for op in block.ops:
        if any(name not in parameters for name in op.output_arg_names):
            uni_op_freq[op.type] = uni_op_freq.get(op.type, 0) + 1

    producers = {}  # var name -> the types of the ops that wrote it, in order
    consumers = OrderedDict()  # op type -> the type of each input's last writer
    for op in block.ops:
        for name in op.input_arg_names:
            if name in parameters:
                continue
            if name in producers:
                consumers.setdefault(op.type, []).append(producers[name][-1])
            else:
                print("Var's generate op is not found,%s, %s" % (name, op.type))
        for name in op.output_arg_names:
            producers.setdefault(name, []).append(op.type)

    adj_2_op_freq = OrderedDict()
    for op_type, inputs_from in consumers.items():
        for producer in inputs_from:
            edge = producer + "->" + op_type
            adj_2_op_freq[edge] = adj_2_op_freq.get(edge, 0) + 1

    return _by_count(uni_op_freq), _by_count(adj_2_op_freq)
