# deque in algorithms: BFS over a graph (sorted neighbours for determinism), sliding window maximum, rotating a buffer, bounded history.
from collections import deque

graph = {"a": ["c", "b"], "b": ["d"], "c": ["d", "e"], "d": ["f"], "e": ["f"], "f": []}


def bfs(start):
    seen, order, q = {start}, [], deque([start])
    while q:
        node = q.popleft()
        order.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in seen:
                seen.add(nxt)
                q.append(nxt)
    return order


def window_max(nums, k):
    dq, out = deque(), []
    for i, n in enumerate(nums):
        while dq and nums[dq[-1]] <= n:
            dq.pop()
        dq.append(i)
        if dq[0] <= i - k:
            dq.popleft()
        if i >= k - 1:
            out.append(nums[dq[0]])
    return out


print(bfs("a"), window_max([1, 3, -1, -3, 5, 3, 6, 7], 3))
buf = deque(range(5))
buf.rotate(-2)
hist = deque(maxlen=3)
for loss in [0.9, 0.7, 0.6, 0.5]:
    hist.append(loss)
print(list(buf), list(hist), sum(hist) / len(hist), deque([1, 2]) == deque([1, 2]), repr(deque([1], maxlen=2)))
