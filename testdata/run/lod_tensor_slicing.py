# Slicing a fetched or scope tensor (Paddle 1.4-1.5's Tensor.__getitem__,
# test_tensor's slice checks): ints keep their axis, steps as numpy's, the
# result a new tensor. (Paddle 3.3.1 reads stray memory for a negative index
# there, so none is compared; fluidc counts from the end, as numpy.)
import numpy
import paddle.fluid as fluid

t = fluid.LoDTensor()
a = numpy.arange(1, 28).reshape(3, 3, 3).astype('int64')
t.set(a, fluid.CPUPlace())
for part in [t[1], t[1:], t[2::-2, 0:1], t[2, :, 1:2], t[0:2, 2]]:
    v = numpy.array(part)
    print(v.shape, v.tolist())
f = fluid.LoDTensor()
f.set(numpy.linspace(0, 1, 6).reshape(2, 3).astype('float32'), fluid.CPUPlace())
print(numpy.array(f[:, ::2]).tolist(), numpy.array(f[1]).dtype)
