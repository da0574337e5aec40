# A dict key must be hashable, as in Python (TypeError: unhashable type).
import paddle.fluid as fluid

d = {[1, 2]: 'a'}
e = {}
e[[1]] = 1
print(e.get({}))
print([3] in e)
del e[[4]]
ok = {(1, 2): 'a'}
print(ok[(1, 2)], e[1])
