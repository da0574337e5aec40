# How 1.x's distribute transpiler split parameters into blocks for the
# parameter servers (slice_variable, 1.0's test_slice_var.py style).
from __future__ import print_function
import paddle.fluid as fluid
from paddle.fluid.transpiler.distribute_transpiler import slice_variable

prog = fluid.Program()
block = prog.global_block()
shapes = [[3, 5], [1024], [28, 784], [8, 1020], [800, 10], [10, 4, 6], [100000]]
variables = [block.create_var(name="var_%d" % i, persistable=True, shape=s)
             for i, s in enumerate(shapes)]

for slice_count, min_block_size in [(1, 8192), (3, 1024), (10, 1024), (4, 8192), (7, 7)]:
    blocks = slice_variable(variables, slice_count, min_block_size)
    print(slice_count, min_block_size, len(blocks))
    per_var = {}
    for b in blocks:
        name, block_id, size = b.split(":")
        per_var.setdefault(name, []).append((int(block_id), int(size)))
    for v, s in zip(variables, shapes):
        parts = per_var[v.name]
        total = 1
        for d in s:
            total *= d
        print("  ", v.name, [p[1] for p in parts], sum(p[1] for p in parts) == total)
print(slice_variable(variables[:2], 2, 4))
