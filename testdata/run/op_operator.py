# Single ops run on a scope, as Paddle 1.0's unit tests ran them
# (test_beam_search_decode_op, op_test.py): the test puts tensors in a
# core.Scope(), builds one op with paddle.fluid.op.Operator(type, slots,
# attributes) and runs it, then reads the outputs back from the scope.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid.op import Operator

place = core.CPUPlace()
scope = core.Scope()


def set_tensor(name, value, lod=None):
    t = scope.var(name).get_tensor()
    t.set(value, place)
    if lod is not None:
        t.set_lod(lod)
    return t


def get(name):
    return np.array(scope.find_var(name).get_tensor())


x = np.arange(12).reshape(3, 4).astype("float32") / 4.0
set_tensor("x", x)
for out in ("scaled", "total", "pooled", "max_index", "filled", "ids_out", "clipped"):
    scope.var(out).get_tensor()

scale_op = Operator("scale", X="x", Out="scaled", scale=2.5, bias=-1.0)
scale_op.run(scope, place)
print(get("scaled"))
print(np.allclose(get("scaled"), x * 2.5 - 1.0))

# A duplicable input takes a list of names.
Operator("sum", X=["x", "scaled"], Out="total").run(scope, place)
print(get("total"))

# A LoD input: sum over each of two sequences (rows 0-1 and 2).
set_tensor("seq", x, lod=[[0, 2, 3]])
Operator("sequence_pool", X="seq", Out="pooled", MaxIndex="max_index",
         pooltype="SUM").run(scope, place)
print(get("pooled"))

# Attributes from numpy values, as 1.x converted them (ndarray.tolist()).
Operator("fill_constant", Out="filled", shape=np.array([2, 3]), value=1.5,
         dtype=int(core.VarDesc.VarType.FP32)).run(scope, place)
print(get("filled"), get("filled").dtype)

Operator("clip", X="x", Out="clipped", min=0.5, max=2.0).run(scope, place)
print(get("clipped"))

# Running again after the input changed reads the new value.
set_tensor("x", np.ones((2, 2), dtype="float32"))
scale_op.run(scope, place)
print(get("scaled"))

# An int64 input keeps its dtype.
set_tensor("ids", np.array([[3], [1], [2]], dtype="int64"))
Operator("scale", X="ids", Out="ids_out", scale=2.0).run(scope, place)
print(get("ids_out").dtype, get("ids_out").ravel().tolist())

# 1.x's op tests pass the kernel choices of its protos to every op
# (use_mkldnn, use_cudnn, fuse_with_relu off); CPU results do not depend on
# them.
set_tensor("x", x)
Operator("scale", X="x", Out="scaled", scale=2.0, use_mkldnn=False, use_cudnn=True,
         fuse_with_relu=False).run(scope, place)
print(get("scaled").ravel().tolist()[:4])

for bad in (lambda: Operator("no_such_op", X="x"),
            lambda: Operator("scale", "x"),
            lambda: Operator("scale", X=["x", "ids"], Out="o")):
    try:
        bad()
    except ValueError:
        print("ValueError")

# Tensor arrays built in the scope from Python, one LoDTensor per step, as
# test_beam_search_decode_op built them: beam_search_decode puts the
# sentences back together (5 steps, 2 sources, beam_size 2, end_id 1).
scope = core.Scope()


def append_lod_tensor(tensor_array, lod, data):
    lod_tensor = core.LoDTensor()
    lod_tensor.set_lod(lod)
    lod_tensor.set(data, place)
    tensor_array.append(lod_tensor)


ids = scope.var("ids").get_lod_tensor_array()
scores = scope.var("scores").get_lod_tensor_array()
steps = [([[0, 1, 2], [0, 1, 2]], [0, 0]),
         ([[0, 1, 2], [0, 2, 4]], [2, 3, 4, 5]),
         ([[0, 2, 4], [0, 2, 2, 4, 4]], [3, 1, 5, 4]),
         ([[0, 2, 4], [0, 1, 2, 3, 4]], [1, 1, 3, 5]),
         ([[0, 2, 4], [0, 0, 0, 2, 2]], [5, 1])]
for lod, data in steps:
    append_lod_tensor(ids, lod, np.array(data, dtype="int64"))
    append_lod_tensor(scores, lod, np.array(data, dtype="float32"))
sentence_ids = scope.var("sentence_ids").get_tensor()
sentence_scores = scope.var("sentence_scores").get_tensor()
op = Operator("beam_search_decode", Ids="ids", Scores="scores", SentenceIds="sentence_ids",
              SentenceScores="sentence_scores", beam_size=2, end_id=1)
op.run(scope, place)
print(sentence_ids.lod(), sentence_scores.lod())
print(np.array(sentence_ids).ravel().tolist())
print(np.array(sentence_scores).ravel().tolist())

# fluid.executor._fetch_var reads a persistable variable of the global scope
# (test_fetch_var).
val = np.array([1, 3, 5]).astype(np.int32)
v = fluid.layers.create_tensor(dtype="int32", persistable=True, name="v")
fluid.layers.assign(input=val, output=v)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_main_program(), feed={}, fetch_list=[])
fetched = fluid.executor._fetch_var("v")
print(fetched, fetched.dtype, np.array_equal(fetched, val))
