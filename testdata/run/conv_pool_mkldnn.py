# Early 2018's simple_img_conv_pool(use_mkldnn=True) picks Paddle's MKL-DNN
# kernels: the same values, and `use_mkldnn` set on the conv2d, its
# activation and the pool2d (not the bias add), as 1.x's layers wrote it.
import numpy as np
import paddle.fluid as fluid

img = fluid.layers.data(name='img', shape=[1, 6, 6], dtype='float32')
w = fluid.ParamAttr(initializer=fluid.initializer.Constant(0.1))
a = fluid.nets.simple_img_conv_pool(input=img, filter_size=3, num_filters=2, pool_size=2,
                                    pool_stride=2, act="relu", param_attr=w,
                                    use_mkldnn=True)
b = fluid.nets.simple_img_conv_pool(input=img, filter_size=3, num_filters=2, pool_size=2,
                                    pool_stride=2, act="relu", param_attr=w)
for op in fluid.default_main_program().global_block().ops:
    print(op.type, op.has_attr("use_mkldnn") and op.attr("use_mkldnn"),
          op.has_attr("use_cudnn") and op.attr("use_cudnn"))
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
x = (np.arange(72, dtype='float32').reshape(2, 1, 6, 6) - 30) / 10
ra, rb = exe.run(feed={'img': x}, fetch_list=[a, b])
print(np.round(ra, 4).reshape(-1).tolist())
print(bool(np.abs(ra - rb).max() < 1e-5))
