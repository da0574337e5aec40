# fluid.debugger as Paddle 1.0's test_debugger used it: a block with a
# SelectedRows, a tensor array, a parameter and a mul op printed as code
# (pprint_program_codes), then drawn as a Graphviz graph. 1.x listed the
# variables and each op's attributes in the order of C++ hash maps, so
# this prints the variables sorted and each op line up to its attributes.
import os
import random
import tempfile

import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid import debugger
from paddle.fluid.framework import Program


def show(code):
    head, ops = code.split("// operators\n")
    lines = head.split("\n")
    print("\n".join(lines[:2]))
    for line in sorted(l for l in lines[2:] if l):
        print("  var:", line)
    for line in ops.split("\n"):
        if line:
            print("  op:", line.split(" [{")[0])


p = Program()
b = p.current_block()
b.create_var(name='selected_rows', dtype="float32", shape=[5, 10],
             type=core.VarDesc.VarType.SELECTED_ROWS)
b.create_var(name='tensor_array', shape=[5, 10], type=core.VarDesc.VarType.LOD_TENSOR_ARRAY)
mul_x = b.create_parameter(dtype="float32", shape=[5, 10], lod_level=0, name="mul.x")
mul_y = b.create_var(dtype="float32", shape=[10, 8], lod_level=0, name="mul.y")
mul_out = b.create_var(dtype="float32", shape=[5, 8], lod_level=0, name="mul.out")
b.append_op(type="mul", inputs={"X": mul_x, "Y": mul_y}, outputs={"Out": mul_out},
            attrs={"x_num_col_dims": 1})
code = debugger.pprint_program_codes(p)
show(code)
print(code.endswith("\n"), code.count("// block-"))

# A small network with its backward: the backward part is left out unless
# show_backward; fill_constant has a line of its own.
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    words = fluid.layers.data(name="words", shape=[1], dtype="int64", lod_level=1)
    x = fluid.layers.data(name="x", shape=[3], dtype="float32")
    y = fluid.layers.fc(input=x, size=2)
    two = fluid.layers.fill_constant(shape=[1], dtype="float32", value=2.5)
    loss = fluid.layers.mean(fluid.layers.elementwise_mul(y, two))
    fluid.backward.append_backward(loss)
show(debugger.pprint_program_codes(main))
full = debugger.pprint_block_codes(main.global_block(), show_backward=True)
print(len([l for l in full.split("\n") if "@GRAD" in l]) > 0)

# The graph: written to the .dot file, then 1.x started Graphviz's `dot`
# (a missing `dot` is an OSError, as Popen raises it).
path = os.path.join(tempfile.mkdtemp(), "test.dot")
random.seed(1)
try:
    debugger.draw_block_graphviz(p.block(0), highlights=["mul.*"], path=path)
    print("dot started")
except OSError:
    print("no dot")
text = open(path).read()
lines = text.split("\n")
print(lines[:5], lines[-1])
# Node names number the nodes in the order the block lists its variables,
# which 1.x took from a hash map: show each node by its label instead.
labels = {}
nodes = []
for k, line in enumerate(lines):
    if line.startswith("arg_") or line.startswith("op_"):
        if " -> " not in line:
            name, rest = line.split(" [label=", 1)
            labels[name] = rest.split(" ,")[0]
            nodes.append((labels[name], "orange" if 'color="orange"' in line else "plain"))
    elif line.startswith("param_") and " -> " not in line:
        labels[line.split(" ")[0]] = "param " + lines[k + 4]
print(sorted(nodes))
for line in sorted(lines):
    if " -> " in line:
        src, rest = line.split(" -> ")
        dst, attrs = rest.split(" ", 1)
        print(" edge:", labels[src], "->", labels[dst], attrs)
print(sorted(v for v in labels.values() if v.startswith("param")))
