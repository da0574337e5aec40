# Constants and arithmetic through Variable operator overloading (math_op_patch).
import paddle.fluid as fluid

a = fluid.layers.fill_constant(shape=[1], dtype='float32', value=3.0)
b = fluid.layers.fill_constant(shape=[1], dtype='float32', value=4.0)

hyp2 = a * a + b * b           # elementwise_mul, elementwise_mul, elementwise_add
half = hyp2 / 2.0 - 1          # scale(0.5), scale(bias=-1)
neg = -half                    # scale(-1)
flipped = 10 - neg             # __rsub__: scale(-1, bias=10)
cube = a ** 3                  # a [1] constant, elementwise_pow

n = fluid.layers.fill_constant(shape=[1], dtype='int64', value=7)
n_half = n / 2                 # integer division: never a scale in Paddle >= 1.6

biggest = fluid.layers.elementwise_max(flipped, hyp2)
out = fluid.layers.mean(fluid.layers.relu(biggest))

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
res = exe.run(fluid.default_main_program(), fetch_list=[out, cube, n_half])
