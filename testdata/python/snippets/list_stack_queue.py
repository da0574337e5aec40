# Lists as stacks and queues, collections.deque comparison, list.pop(0), insert(0), in-place reversal and rotation by slicing.
stack = []
for v in "abc":
    stack.append(v)
print(stack.pop(), stack.pop(), stack)
q = [1, 2, 3]
q.append(4)
print(q.pop(0), q, q[-1])
q.insert(0, 0)
print(q)
r = list(range(6))
k = 2
print(r[k:] + r[:k], r[-k:] + r[:-k], r[::-1])
r.reverse()
print(r, r.index(3), r[r.index(3):])
m = [[1, 2], [3, 4]]
flat = [x for row in m for x in row]
print(flat, sum(m, []), list(map(list, zip(*m))), [row[:] for row in m] == m)
