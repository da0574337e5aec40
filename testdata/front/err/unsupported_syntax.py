# Syntax fluidc does not evaluate is reported, never skipped.
import paddle.fluid as fluid
import tensorflow as tf


class Model:
    def forward(self):
        return 1


try:
    pass
except Exception:
    pass
