# The desc-level API of 1.x's pybind (protobuf.cc), as 1.0's
# test_protobuf_descs.py and test_infer_shape.py used it: a ProgramDesc's
# blocks, a BlockDesc's variables and ops, VarDesc and OpDesc methods,
# check_attrs and infer_shape.
import paddle.fluid.core as core

prog = core.ProgramDesc()
print(prog.num_blocks())
block = prog.block(0)
print(block.id, block.parent, block.op_size())

x = block.var(b"x")
print(x.name(), x.type() == core.VarDesc.VarType.LOD_TENSOR)
x.set_shape([10, 20])
x.set_dtype(core.VarDesc.VarType.FP32)
x.set_lod_level(1)
print(x.shape(), x.dtype() == core.VarDesc.VarType.FP32, x.lod_level())
try:
    block.var("y")
except TypeError:
    print("var() takes bytes")
y = block.var(b"y")
y.set_type(core.VarDesc.VarType.LOD_TENSOR)
y.set_shape([20, 5])
y.set_dtype(core.VarDesc.VarType.FP32)
print(block.has_var(b"y"), block.has_var(b"z"), block.find_var(b"z") is None)
print(sorted(v.name() for v in block.all_vars()), block.find_var(b"y").shape())
y.set_persistable(True)
print(y.persistable(), x.persistable())

op = block.append_op()
op.set_type("sum")
op.set_input("X", ["x", "x"])
op.set_output("Out", ["sum_out"])
print(op.type(), op.input("X"), op.output("Out"), op.input_names(), op.output_names())
print(op.input_arg_names(), op.output_arg_names(), block.op_size())

mul = block.append_op()
mul.set_type("mul")
mul.set_input("X", ["x"])
mul.set_input("Y", ["y"])
mul.set_output("Out", ["mul_out"])
mul._set_attr("x_num_col_dims", 1)
print(mul.attr("x_num_col_dims"), mul.has_attr("y_num_col_dims"))
mul.check_attrs()
print(mul.has_attr("y_num_col_dims"), mul.attr("y_num_col_dims"))
out = block.var(b"mul_out")
out.set_type(core.VarDesc.VarType.LOD_TENSOR)
mul.infer_shape(block)
print(out.shape(), out.dtype() == core.VarDesc.VarType.FP32)

s = block.var(b"sum_out")
op.check_attrs()
op.infer_shape(block)
print(s.shape(), block.op(0).type(), block.op(1).type(), block.op_size())

first = block._prepend_op()
first.set_type("scale")
print(block.op_size(), block.op(0).type(), block.op(1).type())

sub = prog.append_block(block)
print(prog.num_blocks(), sub.id, sub.parent)
print(sub.has_var(b"x"), sub.has_var_recursive(b"x"), sub.find_var_recursive(b"x").shape())
inner = sub.var(b"inner")
print(sub.has_var(b"inner"), block.has_var(b"inner"), inner.name())
prog.append_block(sub)
print(prog.num_blocks(), prog.block(2).parent)
block._remove_var(b"sum_out")
print(sorted(v.name() for v in block.all_vars()))

# Attribute types; an op keeps its OpDesc while others are inserted and
# removed around it.
other = core.ProgramDesc()
b0 = other.block(0)
op1 = b0.append_op()
op2 = b0.append_op()
op0 = b0._prepend_op()
print([b0.op(i) is o for i, o in enumerate([op0, op1, op2])])
op1.set_type("scale")
op1._set_attr("scale", 2.5)
op1._set_attr("bias_after_scale", False)
op1.set_block_attr("sub_block", other.block(0))
print(op1.attr_type("scale") == core.AttrType.FLOAT, op1.attr_type("scale") == core.AttrType.INT)
print(op1.attr_type("sub_block") == core.AttrType.BLOCK, op1._block_attr_id("sub_block"), op1.attr("scale"))
b0._remove_op(0, 1)
print(b0.op_size(), b0.op(0) is op1, b0.op(1) is op2, b0.op(0).type())

# A READER's several tensors, a SELECTED_ROWS variable's shape.
reader = b0.var(b"my_reader")
reader.set_type(core.VarDesc.VarType.READER)
reader.set_shapes([[2, 3, 3], [4, 5], [6, 7, 8, 9]])
reader.set_dtypes([core.VarDesc.VarType.INT32, core.VarDesc.VarType.FP64, core.VarDesc.VarType.FP32])
reader.set_lod_levels([3, 1, 2])
print(reader.shapes(), reader.lod_levels(), reader.type() == core.VarDesc.VarType.READER)
print([d == t for d, t in zip(reader.dtypes(), [core.VarDesc.VarType.INT32, core.VarDesc.VarType.FP64,
                                                 core.VarDesc.VarType.FP32])])
rows = b0.var(b"rows_var")
rows.set_type(core.VarDesc.VarType.SELECTED_ROWS)
rows.set_shape([3, 2, 10, 8])
print(rows.shape(), rows.type() == core.VarDesc.VarType.SELECTED_ROWS)
