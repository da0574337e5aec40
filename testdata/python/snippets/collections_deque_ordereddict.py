# collections.deque (maxlen, rotate, appendleft, popleft) and OrderedDict (move_to_end, popitem last=False, equality).
from collections import OrderedDict, deque

dq = deque([1, 2, 3], maxlen=4)
dq.append(4)
dq.append(5)
dq.appendleft(0)
print(dq, dq.maxlen, len(dq))
dq.rotate(1)
print(list(dq), dq.popleft(), dq.pop(), list(dq), dq[0], dq[-1])
dq.extend([7, 8])
dq.extendleft([9])
print(list(dq), 7 in dq, dq.count(7), deque("abc"), deque())
window = deque(maxlen=3)
for x in range(6):
    window.append(x)
    print(x, sum(window) / len(window))
od = OrderedDict()
od["b"] = 1
od["a"] = 2
od["c"] = 3
od.move_to_end("b")
print(list(od.items()), od.popitem(last=False), list(od))
od.move_to_end("c", last=False)
print(list(od.keys()), OrderedDict(a=1, b=2) == OrderedDict(b=2, a=1), OrderedDict(a=1, b=2) == dict(b=2, a=1))
