# fluid.layers.continuous_value_model (1.5-1.6), as CTR models with show
# and click counts used it: each embedded slot's first two values are show
# and click; with use_cvm they become log(show+1), log(click+1)-log(show+1),
# without it they are dropped. Its gradient hands the batch's show/click
# back in their place (one CVM row per sequence of the LoD input).
import numpy as np
import paddle.fluid as fluid

emb = fluid.layers.data(name='emb', shape=[5], dtype='float32', lod_level=1)
show_click = fluid.layers.data(name='show_click', shape=[2], dtype='float32')
emb.stop_gradient = False
with_cvm = fluid.layers.continuous_value_model(emb, show_click, use_cvm=True)
without = fluid.layers.continuous_value_model(emb, show_click, use_cvm=False)
print(with_cvm.shape, without.shape)
w = fluid.layers.fill_constant(shape=[1], dtype='float32', value=2.0)
loss = fluid.layers.reduce_sum(fluid.layers.elementwise_mul(with_cvm, w)) + \
    fluid.layers.reduce_sum(without)
grads = fluid.backward.append_backward(loss, parameter_list=[])
g = fluid.default_main_program().global_block().var(emb.name + '@GRAD')

place = fluid.CPUPlace()
exe = fluid.Executor(place)
x = np.array([[3, 1, 0.5, -1, 2], [0, 0, 1, 1, 1], [9, 4, 0.25, 0, -2]], dtype='float32')
feed = {'emb': fluid.create_lod_tensor(x, [[2, 1]], place),
        'show_click': np.array([[10, 2], [7, 1]], dtype='float32')}
a, b, dx = exe.run(feed=feed, fetch_list=[with_cvm, without, g], return_numpy=False)
print(np.round(np.array(a), 5).tolist(), a.lod())
print(np.array(b).tolist())
print(np.array(dx).tolist())

# Without a LoD, one CVM row per row of the input.
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    dense = fluid.layers.data(name='dense', shape=[4], dtype='float32')
    sc = fluid.layers.data(name='sc', shape=[2], dtype='float32')
    dense.stop_gradient = False
    out = fluid.layers.continuous_value_model(dense, sc)
    fluid.backward.append_backward(fluid.layers.reduce_sum(out), parameter_list=[])
    gd = main.global_block().var(dense.name + '@GRAD')
y, gy = exe.run(main, feed={'dense': np.array([[1, 0, 2, 3], [4, 5, 6, 7]], dtype='float32'),
                            'sc': np.array([[1, 2], [3, 4]], dtype='float32')},
                fetch_list=[out, gd])
print(np.round(y, 5).tolist(), gy.tolist())
