# program._to_readable_code() (Paddle 1.7+'s `print(program)`; 1.x printed
# the protobuf text, see testdata/fluidc_only/program_to_string.py) prints
# what Paddle 3.3.1 prints: every block under its block_idx header, with the
# slots, defaults and stop_gradient flags Paddle gives the ops and
# variables; then what a script reads of its blocks.
import paddle.fluid as fluid
i = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
n = fluid.layers.fill_constant(shape=[1], dtype='int64', value=3)
c = fluid.layers.less_than(i, n)
w = fluid.layers.While(cond=c)
with w.block():
    fluid.layers.increment(i, in_place=True)
    fluid.layers.less_than(i, n, cond=c)
print(fluid.default_main_program()._to_readable_code())
prog = fluid.default_main_program()
print(prog.num_blocks, [b.idx for b in prog.blocks], prog.block(1).parent_idx)
body = prog.block(1)
print(sorted(prog.global_block().vars.keys()), list(body.vars), 'i' in body.vars)
for name in prog.global_block().vars:
    print(name, prog.global_block().vars[name].persistable)
print("end")

# block.ops: the operators a 2018 test inspects after building.
ops_prog = fluid.Program()
with fluid.program_guard(ops_prog):
    ox = fluid.layers.data(name='ox', shape=[2], dtype='float32')
    oy = fluid.layers.scale(ox, scale=2.0, bias=1.0)
    oz = fluid.layers.elementwise_add(ox, oy)
ops_block = ops_prog.global_block()
print(len(ops_block.ops), [op.type for op in ops_block.ops])
first = ops_block.ops[0]
print(first.type, first.input_names, first.output_names, first.input('X'), first.output('Out'))
print(first.attr('scale'), first.attr('bias'), first.has_attr('scale'), first.has_attr('nope'))
print(ops_block.ops[1].input_arg_names, ops_block.ops[1].output_arg_names)
