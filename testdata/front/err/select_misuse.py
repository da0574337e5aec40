# A case outside its Select, two default cases, and a channel op on a
# variable that is not a channel.
import paddle.fluid as fluid
import paddle.fluid.core as core

ch = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR, capacity=1)
v = fluid.layers.fill_constant(shape=[1], dtype='int64', value=1)

select = fluid.Select()
with select.case(fluid.channel_send, ch, v):
    pass

with fluid.Select() as s2:
    with s2.default():
        pass
    with s2.default():
        pass

fluid.channel_send(v, v)
