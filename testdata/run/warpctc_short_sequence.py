# CTC on a batch where one utterance has fewer frames than its transcript
# needs (4 labels, 1 repeated, in 4 frames): warp-ctc gives that sequence
# loss 0 and no gradient instead of inf, and training on the batch goes on.
import numpy as np
import paddle.fluid as fluid

feat = fluid.layers.data(name='feat', shape=[6], dtype='float32', lod_level=1)
label = fluid.layers.data(name='label', shape=[1], dtype='int32', lod_level=1)
logits = fluid.layers.fc(input=feat, size=5, param_attr=fluid.ParamAttr(
    initializer=fluid.initializer.Constant(0.1)))
loss = fluid.layers.warpctc(input=logits, label=label, blank=4)
avg = fluid.layers.mean(loss)
fluid.optimizer.SGD(learning_rate=0.5).minimize(avg)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
place = fluid.CPUPlace()
np.random.seed(2)
f = fluid.create_lod_tensor(np.random.rand(10, 6).astype('float32'), [[6, 4]], place)
# The second transcript, 1 2 2 3, needs 5 frames.
l = fluid.create_lod_tensor(np.array([[0], [1], [3], [1], [2], [2], [3]], 'int32'), [[3, 4]], place)
for step in range(3):
    out, g = exe.run(feed={'feat': f, 'label': l}, fetch_list=[loss, logits.name + '@GRAD'],
                     return_numpy=False)
    out, g = np.array(out), np.array(g)
    print(step, np.round(out.reshape(-1).astype('float64'), 5).tolist(),
          np.round(np.abs(g[6:]).sum(), 6), np.round(np.abs(g[:6]).sum(), 5))
