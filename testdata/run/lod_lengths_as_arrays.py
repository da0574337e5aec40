# The book's word2vec inference (2019) builds its LoD tensors with the
# lengths as a numpy array: 1.x's binding took any sequence of sequences.
import numpy
import paddle.fluid as fluid

place = fluid.CPUPlace()
lod = numpy.asarray([[1]], dtype=numpy.int64)
word = fluid.create_lod_tensor(numpy.asarray([[211]], dtype=numpy.int64), lod, place)
print(word.recursive_sequence_lengths())

t = fluid.LoDTensor()
t.set(numpy.arange(5, dtype='float32').reshape(5, 1), place)
t.set_recursive_sequence_lengths(numpy.array([[2, 3]]))
print(t.recursive_sequence_lengths())
t.set_lod(numpy.array([[0, 4, 5]]))
print(t.lod())
