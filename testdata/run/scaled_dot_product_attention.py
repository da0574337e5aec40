# fluid.nets.scaled_dot_product_attention as Paddle 1.0's
# test_multihead_attention used it: 3-D queries, keys and values
# ([batch, length, hidden]), the contexts summed into a loss and
# append_backward, here with one head (no parameters) and with two heads
# (fc projections, set to fixed weights after the startup program), and
# the gradients of the inputs fetched too.
import numpy as np
import paddle.fluid as fluid

np.random.seed(7)
batch, length, hidden = 2, 3, 4
q_np = np.random.random((batch, length, hidden)).astype("float32")
k_np = np.random.random((batch, length, hidden)).astype("float32")
v_np = np.random.random((batch, length, 6)).astype("float32")


def build(num_heads, dropout_rate=0.):
    queries = fluid.layers.data(name="queries", shape=[batch, length, hidden],
                                dtype="float32", append_batch_size=False)
    queries.stop_gradient = False
    keys = fluid.layers.data(name="keys", shape=[batch, length, hidden],
                             dtype="float32", append_batch_size=False)
    keys.stop_gradient = False
    values = fluid.layers.data(name="values", shape=[batch, length, 6],
                               dtype="float32", append_batch_size=False)
    values.stop_gradient = False
    contexts = fluid.nets.scaled_dot_product_attention(
        queries=queries, keys=keys, values=values, num_heads=num_heads,
        dropout_rate=dropout_rate)
    out = fluid.layers.reduce_sum(contexts, dim=None)
    fluid.backward.append_backward(loss=out)
    return contexts, out


for num_heads in (1, 2):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        contexts, out = build(num_heads)
    print("heads", num_heads, "contexts shape", contexts.shape)
    scope = fluid.core.Scope()
    exe = fluid.Executor(fluid.CPUPlace())
    with fluid.scope_guard(scope):
        exe.run(startup)
        params = sorted(p.name for p in main.global_block().all_parameters())
        print(params)
        for i, name in enumerate(params):
            t = scope.find_var(name).get_tensor()
            shape = np.array(t).shape
            w = ((np.arange(int(np.prod(shape))) * (i + 3)) % 7 - 3) / 5.0
            t.set(w.reshape(shape).astype("float32"), fluid.CPUPlace())
        ctx, loss, gq, gk, gv = exe.run(
            main, feed={"queries": q_np, "keys": k_np, "values": v_np},
            fetch_list=[contexts, out, "queries@GRAD", "keys@GRAD", "values@GRAD"])
    np.set_printoptions(precision=5, suppress=True)
    print(ctx)
    print(loss)
    print(gq)
    print(gk)
    print(gv)

# The same attention by hand in numpy for one head: softmax(K Q^T / 2) V
# (1.0-1.4 multiplied the keys by the scaled queries).
prod = np.matmul(k_np, np.transpose(q_np / 2.0, (0, 2, 1)))
w = np.exp(prod - prod.max(axis=-1, keepdims=True))
w = w / w.sum(axis=-1, keepdims=True)
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    contexts, _ = build(1)
exe = fluid.Executor(fluid.CPUPlace())
got, = exe.run(main, feed={"queries": q_np, "keys": k_np, "values": v_np},
               fetch_list=[contexts])
print(np.allclose(got, np.matmul(w, v_np), atol=1e-5))

# Inputs that do not fit are refused when the layer is built.
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    a = fluid.layers.data(name="a", shape=[2, 3, 4], dtype="float32", append_batch_size=False)
    b = fluid.layers.data(name="b", shape=[2, 3, 5], dtype="float32", append_batch_size=False)
    c = fluid.layers.data(name="c", shape=[2, 3], dtype="float32", append_batch_size=False)
    for args in ((a, b, b, 1), (a, a, c, 1), (a, a, a, 3)):
        try:
            fluid.nets.scaled_dot_product_attention(*args)
        except ValueError as e:
            print("ValueError:", e)
    with_dropout = fluid.nets.scaled_dot_product_attention(a, a, a, num_heads=2, dropout_rate=0.5)
    print([op.type for op in main.global_block().ops])
