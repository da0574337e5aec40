# heapq (push/pop, heapify, nlargest/nsmallest with key, merge, pushpop/replace) and bisect (insort, bisect_left/right, key).
import bisect
import heapq

h = []
for v in [5, 1, 8, 3, 9, 2]:
    heapq.heappush(h, v)
print(h[0], [heapq.heappop(h) for _ in range(3)], h)
data = [7, 2, 9, 4, 1]
heapq.heapify(data)
print(data, heapq.nlargest(2, [7, 2, 9, 4, 1]), heapq.nsmallest(2, ["bb", "a", "ccc"], key=len))
print(heapq.heappushpop([1, 5], 3), heapq.heapreplace([1, 5], 3), list(heapq.merge([1, 4, 7], [2, 5], [3])))
tasks = []
heapq.heappush(tasks, (2, "write"))
heapq.heappush(tasks, (1, "read"))
heapq.heappush(tasks, (2, "alpha"))
print([heapq.heappop(tasks) for _ in range(3)])
a = [1, 3, 3, 5, 8]
print(bisect.bisect_left(a, 3), bisect.bisect_right(a, 3), bisect.bisect(a, 4), bisect.bisect_left(a, 100))
bisect.insort(a, 4)
bisect.insort_left(a, 3)
print(a)
grades = lambda score: "FDCBA"[bisect.bisect([60, 70, 80, 90], score)]
print([grades(s) for s in [33, 60, 75, 89, 90, 100]])
print(bisect.bisect_left([(1, "a"), (3, "c")], 2, key=lambda t: t[0]))
