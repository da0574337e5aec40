# A 2019 training script (in the style of the Paddle book's fit_a_line and
# recognize_digits with Paddle 1.5/1.6): train a small regression net, save
# an inference model after each epoch, then load the last one and predict.
# 1.4-1.6's save_inference_model appends `scale(x, 1.)` ops named
# "save_infer_model/scale_<i>" (the loaded fetch targets) and the loaded
# program holds its feed and fetch ops.
import os
import tempfile
import numpy as np
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[3], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
hidden = fluid.layers.fc(input=x, size=4, act='relu',
                         param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.3)))
pred = fluid.layers.fc(input=hidden, size=1,
                       param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.2)))
prob = fluid.layers.sigmoid(pred)
cost = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
fluid.optimizer.SGD(learning_rate=0.05).minimize(cost)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
save_dir = os.path.join(tempfile.mkdtemp(), "fit_a_line.inference.model")
data = np.arange(12).reshape(4, 3).astype('float32') / 10
label = data.sum(axis=1, keepdims=True)
infer_exe = fluid.Executor(fluid.CPUPlace())
for epoch in range(2):
    loss, = exe.run(feed={'x': data, 'y': label}, fetch_list=[cost])
    print("epoch", epoch, "cost %.5f" % float(loss.ravel()[0]))
    names = fluid.io.save_inference_model(save_dir, ['x'], [pred, prob], exe)
    print("saved", names)
    inference_scope = fluid.core.Scope()
    with fluid.scope_guard(inference_scope):
        [program, feed_names, fetch_targets] = fluid.io.load_inference_model(save_dir, infer_exe)
        print(feed_names, [v.name for v in fetch_targets])
        if epoch == 0:
            # (A second save keeps the first save's scale ops too: 1.6's
            # prune kept every op writing a target, 3.3.1's the last.)
            print([op.type for op in program.global_block().ops])
        print("scale" in str(fetch_targets[0]), fetch_targets[1].shape)
        results = infer_exe.run(program, feed={feed_names[0]: data[:2]}, fetch_list=fetch_targets)
        print(np.round(results[0], 4).ravel().tolist(), np.round(results[1], 4).ravel().tolist())
print([op.type for op in fluid.default_main_program().global_block().ops][-4:])

# One combined params file and a named model file, as serving code of the time used.
fluid.io.save_inference_model(save_dir + "2", ['x'], pred, exe, model_filename='model',
                              params_filename='params')
print(sorted(os.listdir(save_dir + "2")))
program, feed_names, fetch_targets = fluid.io.load_inference_model(
    save_dir + "2", exe, model_filename='model', params_filename='params')
print([v.name for v in fetch_targets], [op.type for op in program.global_block().ops][-2:])
out, = exe.run(program, feed={'x': data[2:]}, fetch_list=fetch_targets)
print(np.round(out, 4).ravel().tolist())

# A program with an auc metric: 1.4-1.6 warned that its states are saved
# as they stand (1.6's test_inference_model_io checks the warning).
import warnings
auc_program, auc_startup = fluid.Program(), fluid.Program()
with fluid.program_guard(auc_program, auc_startup):
    ax = fluid.layers.data(name='ax', shape=[2], dtype='float32')
    ay = fluid.layers.data(name='ay', shape=[1], dtype='int64')
    prob = fluid.layers.fc(input=ax, size=2, act='softmax')
    auc_var, _, _ = fluid.layers.auc(input=prob, label=ay)
exe.run(auc_startup)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    fluid.io.save_inference_model(save_dir + "3", ['ax'], [prob], exe, auc_program)
print("warned of the auc states:", any("auc states" in str(w.message) for w in caught))
