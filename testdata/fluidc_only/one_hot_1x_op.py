# The `one_hot` op as Paddle 1.0-1.5's layers.one_hot wrote it (ids [N, 1]
# to [N, depth]), which programs and inference models saved by 1.x hold:
# fluidc's own layer writes Paddle 3's one_hot_v2 (3.3.1 has no one_hot),
# so this builds the op as 1.x's layer did and checks it against numpy,
# LoD kept, allow_out_of_range's row of zeros, and a depth_tensor. fluidc
# only: Paddle 3.3.1 cannot run the op.
import numpy as np
import paddle.fluid as fluid

ids = fluid.layers.data(name='ids', shape=[1], dtype='int64', lod_level=1)
block = fluid.default_main_program().global_block()


def one_hot_1x(x, depth, **extra):
    out = block.create_var(name=fluid.unique_name.generate('one_hot_1x'), dtype='float32')
    inputs = {'X': x}
    attrs = {'depth': depth, 'dtype': int(fluid.core.VarDesc.VarType.FP32)}
    if 'depth_tensor' in extra:
        inputs['depth_tensor'] = extra.pop('depth_tensor')
    attrs.update(extra)
    block.append_op(type='one_hot', inputs=inputs, outputs={'Out': out}, attrs=attrs)
    return out


plain = one_hot_1x(ids, 5)
loose = one_hot_1x(ids, 3, allow_out_of_range=True)
depth = fluid.layers.fill_constant(shape=[1], dtype='int32', value=6)
sized = one_hot_1x(ids, -1, depth_tensor=depth)
assert plain.shape == (-1, 5), plain.shape
assert block.ops[0].type == 'one_hot'

exe = fluid.Executor(fluid.CPUPlace())
values = np.array([[1], [4], [0], [3]], dtype='int64')
t = fluid.create_lod_tensor(values, [[1, 3]], fluid.CPUPlace())
p, l, s = exe.run(feed={'ids': t}, fetch_list=[plain, loose, sized], return_numpy=False)
want = np.eye(5, dtype='float32')[values[:, 0]]
assert np.array_equal(np.array(p), want), np.array(p)
assert p.lod() == [[0, 1, 4]], p.lod()
want_loose = np.zeros((4, 3), dtype='float32')
for r, k in enumerate(values[:, 0]):
    if k < 3:
        want_loose[r, k] = 1
assert np.array_equal(np.array(l), want_loose), np.array(l)
assert np.array(s).shape == (4, 6) and np.array_equal(np.array(s)[:, :5], want)
print('one_hot 1.x op: ok')
