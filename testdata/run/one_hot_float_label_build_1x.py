# 1.0's layer tests built one_hot over a float32 label (as its docstring
# example did) and only printed the program: 1.x's one_hot checked no
# dtype when building, so the program builds; running it would need int
# ids.
import paddle.fluid as fluid
from paddle.fluid import layers

program = fluid.Program()
with fluid.program_guard(program, fluid.Program()):
    label = layers.data(name="label", shape=[1], dtype="float32")
    one_hot_label = layers.one_hot(input=label, depth=10)
    smooth_label = layers.label_smooth(label=one_hot_label, epsilon=0.1, dtype="float32")
print(smooth_label.shape, one_hot_label.shape)
print(len(program.global_block().ops) > 1)
