# Re-declaring a variable by name: 1.x's Variable checked that the type,
# shape, dtype, lod_level and persistable flag match the first declaration
# (1.0's test_variable.py style).
from __future__ import print_function
import paddle.fluid as fluid
import paddle.fluid.core as core

prog = fluid.Program()
b = prog.global_block()
w = b.create_var(name="fc.w", shape=[784, 100], dtype="float64", lod_level=0)
seq = b.create_var(name="words", shape=[-1, 1], dtype="int64", lod_level=1)
st = b.create_var(name="state", shape=[1], dtype="float32", persistable=True)


def redeclare(**kw):
    try:
        v = b.create_var(**kw)
        print("ok", v.name, v.shape, v.lod_level, v.persistable)
    except ValueError:
        print("ValueError", sorted(k for k in kw if k != "name"))


# the same declaration again, or with fewer fields: fine
redeclare(name="fc.w", shape=[784, 100], dtype="float64", lod_level=0)
redeclare(name="fc.w")
redeclare(name="fc.w", shape=(784, 100))
redeclare(name="words", dtype="int64", lod_level=1)
redeclare(name="state", persistable=True)
# anything else: ValueError
redeclare(name="fc.w", shape=(24, 100))
redeclare(name="fc.w", shape=[784])
redeclare(name="fc.w", dtype="float32")
redeclare(name="fc.w", lod_level=1)
redeclare(name="words", lod_level=0)
redeclare(name="words", dtype="int32")
redeclare(name="state", persistable=False)
redeclare(name="state", type=core.VarDesc.VarType.LOD_TENSOR_ARRAY)
# the declaration is unchanged after a refused one
print(w.shape, w.dtype == core.VarDesc.VarType.FP64, seq.lod_level, st.persistable)

# in another block the name is a new variable
sub = prog._create_block()
v = sub.create_var(name="fc.w", shape=[2, 2], dtype="float32")
print(v.shape, v.block.idx)
prog._rollback()

# a parameter shared by name must keep its shape
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name="x", shape=[4], dtype="float32")
    y = fluid.layers.data(name="y", shape=[6], dtype="float32")
    h1 = fluid.layers.fc(input=x, size=3, param_attr=fluid.ParamAttr(name="shared"))
    h2 = fluid.layers.fc(input=x, size=3, param_attr=fluid.ParamAttr(name="shared"))
    print("shared:", main.global_block().var("shared").shape)
    try:
        fluid.layers.fc(input=y, size=3, param_attr=fluid.ParamAttr(name="shared"))
        print("no error")
    except ValueError:
        print("ValueError for a shared parameter of another shape")
