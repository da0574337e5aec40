# Syntax fluidc does not evaluate is reported, never skipped.
import paddle.fluid as fluid
import tensorflow as tf


async def forward():
    return 1


match fluid:
    case _:
        pass
