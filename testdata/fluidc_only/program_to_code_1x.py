"""1.x's transpiler.details.program_utils (a 2019 user script printed its
programs with program_to_code). fluidc-only: Paddle 3.3.1 moved the module
(paddle.distributed.transpiler) and its ops carry other attributes. What
is asserted is 1.6's format (program_utils.py): variables sorted by name
with persist/trainable parameter/var prefixes, then each op as
`{OUT=[...]} = type(inputs={IN=[...]}, attr = value, ...)`, attributes
sorted, op_callstack skipped by default."""
import io
import paddle.fluid as fluid
import paddle.fluid.transpiler.details.program_utils as pu

x = fluid.layers.data(name='X', shape=[13], dtype='float32')
y = fluid.layers.fc(input=x, size=1, act=None,
                    param_attr=fluid.ParamAttr(name='w'), bias_attr=fluid.ParamAttr(name='b'))
cost = fluid.layers.mean(y)
block = fluid.default_main_program().global_block()
assert pu.find_op_by_input_arg(block, 'X') == 0
assert pu.find_op_by_output_arg(block, y.name) == 1
assert pu.find_op_by_output_arg(block, 'w') == -1
assert pu.variable_to_code(block.var('X')) == \
    'var X : fluid.VarType.LOD_TENSOR.shape(-1, 13).astype(VarType.FP32)'
assert pu.variable_to_code(block.var('w')) == \
    'persist trainable parameter w : fluid.VarType.LOD_TENSOR.shape(13, 1).astype(VarType.FP32)'
assert pu.get_indent_space(2) == ' ' * 8

out = io.StringIO()
pu.program_to_code(fluid.default_main_program(), fout=out)
lines = out.getvalue().splitlines()
assert lines[0] == '{ // block 0' and lines[-1] == '}', lines
names = [l.split(' : ')[0].split()[-1] for l in lines[1:] if ' : fluid.' in l]
assert names == sorted(names) and 'w' in names and 'X' in names, names
mul = [l for l in lines if ' = mul(' in l][0]
assert mul.startswith("    {Out=['%s']} = mul(inputs={X=['X'], Y=['w']}, " % block.ops[0].output('Out')[0]), mul
assert 'x_num_col_dims = 1' in mul and 'op_callstack' not in mul, mul
attrs = [a.split(' = ')[0] for a in mul.split('}, ', 1)[1].rstrip(')').split(', ')]
assert attrs == sorted(attrs), attrs

out = io.StringIO()
pu.block_to_code(block, 0, fout=out)
assert 'op_callstack = ' in out.getvalue()

# A While's sub-block prints as 1.x printed a block attribute.
loop = fluid.Program()
with fluid.program_guard(loop, fluid.Program()):
    i = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
    n = fluid.layers.fill_constant(shape=[1], dtype='int64', value=3)
    cond = fluid.layers.less_than(i, n)
    w = fluid.layers.While(cond=cond)
    with w.block():
        fluid.layers.increment(i)
        fluid.layers.less_than(i, n, cond=cond)
out = io.StringIO()
pu.program_to_code(loop, fout=out)
text = out.getvalue()
assert text.count('{ // block') == 2, text
while_line = [l for l in text.splitlines() if ' = while(' in l][0]
assert 'sub_block = block[1]' in while_line, while_line
print('program_to_code ok')
