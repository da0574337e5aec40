# What 1.0's test_operator_desc.py checks of framework.Operator: append_op
# refuses a missing or unknown type (ValueError), an output Variable given
# bare (not in a list) gets its `op` as a listed one does, and an op's
# attribute names are its own and the framework's (1.x's ops had no
# op_device / with_quant_attr).
import paddle.fluid as fluid

prog = fluid.Program()
block = prog.current_block()
for kw in ({}, {"type": "no_such_op"}):
    try:
        block.append_op(**kw)
    except ValueError as e:
        print("ValueError", "can not be None" in str(e), "has not been registered" in str(e))
x = block.create_var(dtype="float32", shape=[3, 4], name="s.x")
out = block.create_var(dtype="float32", shape=[3, 4], name="s.out")
listed = block.create_var(dtype="float32", shape=[3, 4], name="s.listed")
print(out.op is None)
op = block.append_op(type="sum", inputs={"X": [x]}, outputs={"Out": out})
print(out.op is op, out.op.type, x.op is None)
op2 = block.append_op(type="scale", inputs={"X": x}, outputs={"Out": [listed]},
                      attrs={"scale": 2.0})
print(listed.op is op2, listed.op.type, op2.output("Out"))
y = block.create_var(dtype="float32", shape=[4, 2], name="m.y")
mo = block.create_var(dtype="float32", shape=[3, 2], name="m.out")
mul = block.append_op(type="mul", inputs={"X": [x], "Y": y}, outputs={"Out": [mo]},
                      attrs={"x_num_col_dims": 1})
print(sorted(mul.attr_names))
print(mul.has_attr("x_num_col_dims"), mul.has_attr("op_device"), mul.attr("y_num_col_dims"))
print(sorted(a for a in op2.attr_names if a.startswith("op_") or a == "with_quant_attr"))
