# Loads `linear_model/` (written by linear_inference_model.py, under fluidc
# or Paddle) with fluid.io.load_inference_model and predicts.
import numpy
import paddle.fluid as fluid

exe = fluid.Executor(fluid.CPUPlace())
[program, feed_names, fetch_targets] = fluid.io.load_inference_model(
    'linear_model', exe, params_filename='params')
x_new = numpy.array([[5.0], [6.5]]).astype('float32')
pred, = exe.run(program, feed={feed_names[0]: x_new}, fetch_list=fetch_targets)
print(feed_names, [v.name for v in fetch_targets])
print('predict', pred.flatten())
