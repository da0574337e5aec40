# 1.0's test_tensor.py: `_set_dims` then `_alloc_int` / `_alloc_float`
# give a tensor of those dims (int32 / float32) that numpy views, writes
# and sets back; the LoD set on it stays.
import numpy
import paddle.fluid.core as core

place = core.CPUPlace()
scope = core.Scope()
t = scope.var("int_tensor").get_tensor()
t._set_dims([4, 3])
t._alloc_int(place)
a = numpy.array(t)
print(a.shape, a.dtype)
a[3, 2] = 7
a[0, 1] = -2
t.set(a, place)
b = numpy.array(scope.find_var("int_tensor").get_tensor())
print(b[3, 2], b[0, 1], b.dtype)

f = scope.var("float_tensor").get_tensor()
f._set_dims([2, 2, 5])
f._alloc_float(place)
fa = numpy.array(f)
print(fa.shape, fa.dtype)
fa[1, 1, 4] = 2.5
f.set(fa, place)
f.set_recursive_sequence_lengths([[1, 1]])
print(numpy.array(f)[1, 1, 4], f.recursive_sequence_lengths())

lod = core.LoDTensor()
lod._set_dims([5, 2])
lod._alloc_float(place)
print(numpy.array(lod).shape, numpy.array(lod).dtype)

# int8 tensors (1.0's test_int8_tensor) round-trip through numpy.
i8 = scope.var("int8_tensor").get_tensor()
src = numpy.random.RandomState(5).randint(-127, high=128, size=[4, 6], dtype=numpy.int8)
i8.set(src, place)
back = numpy.array(scope.find_var("int8_tensor").get_tensor())
print(back.dtype, back.shape, (back == src).all(), back[0].tolist())
i8.set(numpy.array([-127, 0, 127], dtype=numpy.int8), place)
print(numpy.array(i8).dtype, numpy.array(i8).tolist())
