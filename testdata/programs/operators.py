# Paddle's operator overloading: integer division stays integer (7 / 2 is 3),
# a float scalar makes an integer Variable float32 first, and a number on
# the left of a comparison mirrors it (10 > x is x < 10).
import paddle.fluid as fluid
from paddle.fluid import layers

x = layers.fill_constant(shape=[1], dtype='int64', value=7)
half = x / 2
scaled = x * 1.5
mirrored = 10 > x
print("compiled", "operators", sep=": ")

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[half, scaled, mirrored])
