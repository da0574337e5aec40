# Error clipping as Paddle 1.0's test_error_clip used it: a copy of the
# program whose first hidden layer has an ErrorClipByValue; backward with
# fluid.clip.error_clip_callback clips that layer's gradient in place, so
# its gradient is the unclipped one clipped while the next layer's is the
# same. Then the clip through the optimizer's minimize (1.x passed the
# callback there), a variable used twice (the clip comes after the sum
# of its two gradients) and a clip given at creation (error_clip=).
import numpy as np
import paddle.fluid as fluid

CLIP_MAX = 2e-3
CLIP_MIN = -1e-3
np.random.seed(5)
x_np = np.random.random((6, 8)).astype("float32")
y_np = (np.arange(6) % 4).reshape(6, 1).astype("int64")


def fixed(shape, k):
    n = int(np.prod(shape))
    return fluid.ParamAttr(initializer=fluid.initializer.NumpyArrayInitializer(
        (((np.arange(n) * k) % 13 - 6) / 20.0).reshape(shape).astype("float32")))


prog = fluid.Program()
startup = fluid.Program()
with fluid.program_guard(main_program=prog, startup_program=startup):
    image = fluid.layers.data(name='x', shape=[8], dtype='float32')
    hidden1 = fluid.layers.fc(input=image, size=6, act='relu', param_attr=fixed([8, 6], 3))
    hidden2 = fluid.layers.fc(input=hidden1, size=5, act='relu', param_attr=fixed([6, 5], 5))
    predict = fluid.layers.fc(input=hidden2, size=4, act='softmax', param_attr=fixed([5, 4], 7))
    label = fluid.layers.data(name='y', shape=[1], dtype='int64')
    cost = fluid.layers.cross_entropy(input=predict, label=label)
    avg_cost = fluid.layers.mean(cost)

prog_clip = prog.clone()
prog_clip.block(0).var(hidden1.name)._set_error_clip(
    fluid.clip.ErrorClipByValue(max=CLIP_MAX, min=CLIP_MIN))
print(prog_clip.block(0).var(hidden1.name).error_clip)
print(prog.block(0).var(hidden1.name).error_clip)

avg_cost_clip = prog_clip.block(0).var(avg_cost.name)
fluid.backward.append_backward(loss=avg_cost)
fluid.backward.append_backward(loss=avg_cost_clip, callbacks=[fluid.clip.error_clip_callback])

clips = [op for op in prog_clip.global_block().ops if op.type == "clip"]
print(len(clips), clips[0].input("X"), clips[0].output("Out"),
      clips[0].attr("min"), clips[0].attr("max"))
print(len([op for op in prog.global_block().ops if op.type == "clip"]))
types = [op.type for op in prog_clip.global_block().ops]
at = types.index("clip")
print(types[at - 1], prog_clip.global_block().ops[at - 1].output("X@GRAD"))

hidden1_grad = prog.block(0).var(hidden1.name + "@GRAD")
hidden1_grad_clip = prog_clip.block(0).var(hidden1.name + "@GRAD")
hidden2_grad = prog.block(0).var(hidden2.name + "@GRAD")
hidden2_grad_clip = prog_clip.block(0).var(hidden2.name + "@GRAD")
w_grad = prog.block(0).var("fc_0.w_0@GRAD")
w_grad_clip = prog_clip.block(0).var("fc_0.w_0@GRAD")

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
feed = {"x": x_np, "y": y_np}
out1, out2, w1 = exe.run(prog, feed=feed, fetch_list=[hidden1_grad, hidden2_grad, w_grad])
out1_clip, out2_clip, w1_clip = exe.run(
    prog_clip, feed=feed, fetch_list=[hidden1_grad_clip, hidden2_grad_clip, w_grad_clip])
print((out1.clip(min=CLIP_MIN, max=CLIP_MAX) == out1_clip).all(), (out2 == out2_clip).all())
print((out1 != out1_clip).any(), (w1 != w1_clip).any())
np.set_printoptions(precision=6, suppress=True)
print(out1_clip)
print(w1_clip)

# minimize: the optimizer's backward clips too.
main, startup2 = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup2):
    x = fluid.layers.data(name='x', shape=[8], dtype='float32')
    h = fluid.layers.fc(input=x, size=6, act='tanh', param_attr=fixed([8, 6], 3))
    h._set_error_clip(fluid.clip.ErrorClipByValue(max=1e-3))
    # h feeds two layers: its gradient is the sum of two.
    a = fluid.layers.fc(input=h, size=4, param_attr=fixed([6, 4], 5))
    b = fluid.layers.fc(input=h, size=4, param_attr=fixed([6, 4], 2))
    s = fluid.layers.elementwise_add(a, b)
    # a clip given when the variable is made
    s2 = main.global_block().create_var(name="s2", dtype="float32", shape=[-1, 4],
                                        error_clip=fluid.clip.ErrorClipByValue(max=0.01))
    fluid.layers.assign(fluid.layers.scale(s, scale=3.0), output=s2)
    loss = fluid.layers.mean(fluid.layers.square(s2))
    fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)
h_param = main.global_block().ops[0].input("Y")[0]
types = [op.type for op in main.global_block().ops]
for i, t in enumerate(types):
    if t == "clip":
        op = main.global_block().ops[i]
        print(types[i - 1], op.input("X"), op.attr("min"), op.attr("max"))
exe.run(startup2)
for step in range(3):
    l, hg, w = exe.run(main, feed={"x": x_np},
                       fetch_list=[loss, h.name + "@GRAD", h_param])
    print(step, l, np.abs(hg).max() <= 1e-3, w[0])


try:
    v = main.global_block().var(s.name)
    v._set_error_clip("no")
    fluid.backward.append_backward(loss=loss, callbacks=[fluid.clip.error_clip_callback])
except TypeError as e:
    print("TypeError:", e)
print(str(fluid.clip.ErrorClipByValue(max=5.0)))
