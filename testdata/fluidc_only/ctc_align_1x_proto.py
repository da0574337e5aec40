# ctc_align as Paddle 1.0..1.5 declared it (ctc_align_op.cc: Input ->
# Output; 1.6 added the padded mode's InputLength / OutputLength, which
# Paddle 3.3.1's proto lists). 1.0's OpTest builds every output its proto
# lists (testsuite.append_input_output asserts one it has no value for is
# intermediate), so the proto Python sees is 1.0's. fluidc only: Paddle
# 3.3.1's proto has the 1.6 slots. Checked against a numpy CTCAlign, as
# 1.0's test_ctc_align.py computes it.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid.framework import OpProtoHolder

proto = OpProtoHolder.instance().get_op_proto("ctc_align")
assert [i.name for i in proto.inputs] == ["Input"], [i.name for i in proto.inputs]
assert [o.name for o in proto.outputs] == ["Output"], [o.name for o in proto.outputs]


def ctc_align(tokens, lengths, blank, merge_repeated):
    out, at = [], 0
    for n in lengths:
        prev = -1
        for t in tokens[at:at + n, 0]:
            if t != blank and not (merge_repeated and t == prev):
                out.append(t)
            prev = t
        at += n
    return np.array(out, dtype="int32").reshape(-1, 1)


tokens = np.array([0, 1, 2, 2, 0, 4, 0, 4, 5, 0, 6, 6, 0, 0, 7, 7, 7, 0],
                  dtype="int32").reshape(18, 1)
lengths = [11, 7]
place = core.CPUPlace()
for merge in (False, True):
    # 1.0's OpTest: one variable per slot of the proto, then the op.
    prog = fluid.Program()
    block = prog.global_block()
    slots = {}
    for var_proto in proto.inputs + proto.outputs:
        slots[var_proto.name] = block.create_var(name=var_proto.name + str(merge),
                                                 dtype="int32", lod_level=1)
    block.append_op(type="ctc_align", inputs={"Input": slots["Input"]},
                    outputs={"Output": slots["Output"]},
                    attrs={"blank": 0, "merge_repeated": merge})
    t = core.LoDTensor()
    t.set(tokens, place)
    t.set_recursive_sequence_lengths([lengths])
    got, = fluid.Executor(place).run(prog, feed={slots["Input"].name: t},
                                     fetch_list=[slots["Output"]], return_numpy=False)
    got = np.array(got)
    want = ctc_align(tokens, lengths, 0, merge)
    assert got.tolist() == want.tolist(), (merge, got.tolist(), want.tolist())
    print(merge, got.reshape(-1).tolist())
