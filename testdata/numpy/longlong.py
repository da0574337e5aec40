# numpy's other int64, `long long` (dtype char q): Paddle's int64 tensors
# convert to it, and its arrays print dtype=int64. Which results keep it
# follows numpy's loops.
import numpy as np
q = np.array([1, 2], dtype=np.longlong); l = np.array([1, 2])
for name, r in [('q+l', q + l), ('l+q', l + q), ('q*2', q * 2), ('q+np.int64(1)', q + np.int64(1)), ('l+q0', l + q[0]), ('where', np.where(q > 1, q, l)), ('where2', np.where(q > 1, l, q)), ('stack', np.stack([l, q])), ('cat', np.concatenate([l, q])), ('q//2', q // 2), ('-q', -q), ('abs', np.abs(q)), ('q.T', q.reshape(2,1).T), ('max', np.maximum(q, l)), ('i32', q + np.array([1], dtype=np.int32)), ('cumsum', np.cumsum(q)), ('sort', np.sort(q)), ('argmax', np.argmax(q)), ('q.sum(0)', q.reshape(1,2).sum(0)), ('astype q', l.astype('q')), ('zeros_like', np.zeros_like(q)), ('array(q)', np.array(q)), ('asarray', np.asarray(q)), ('full_like', np.full_like(q, 3)), ('bool sum', (q > 0).sum(0, keepdims=True)), ('arange', np.arange(2)), ('q[None]', q[None]), ('q.copy', q.copy()), ('q.flatten', q.flatten()), ('clip', np.clip(q, 0, 1)), ('q ** 2', q ** 2), ('q % 2', q % 2), ('q & 1', q & 1)]:
    print(name, r.dtype.char, repr(r).replace(chr(10), ' '))
print(np.dtype('q') == np.dtype('l'), np.dtype('q').name, str(np.dtype('q')), repr(np.dtype('q')), np.dtype('q').str, q.dtype == np.int64, q.dtype, [q], q)
print(type(q[0]).__name__, repr(q[0]), repr(np.longlong(3)), type(q.sum()).__name__, repr(np.array(q[0])), repr(q[0] + 1), type(q[0]+1).__name__, repr(np.int64(1) + q[0]))
print(repr(q.max()), repr(q.reshape(2,1).max(0)), repr(np.mean(q)), repr(q.min(0, keepdims=True)), repr(np.prod(q.reshape(1,2), axis=0)), repr(q.astype(np.int64)), repr(q.astype(np.int32)), repr(q.astype(float)), repr(q.astype('int64')), repr(q.astype('q')), repr(np.asarray(q, dtype=np.int64)))
print(q.tolist(), list(q), q.itemsize, np.iinfo(q.dtype).max, isinstance(q[0], np.integer), isinstance(q[0], np.int64), hash(q.dtype) == hash(np.dtype('int64')))
