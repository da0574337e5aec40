# A module imported by import_module_errors.py: its errors name this file.
import paddle.fluid as fluid


def make_input():
    return fluid.layers.data(name='x', shape=[4], dtype='float32')


def build(x):
    return fluid.layers.fc(input=x, size=undefined_size)
