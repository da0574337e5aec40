# threading and queue: worker threads consuming a Queue, join, Lock-protected counter, results sorted for determinism, Event.
import queue
import threading

q = queue.Queue()
results = []
lock = threading.Lock()


def worker():
    while True:
        item = q.get()
        if item is None:
            q.task_done()
            break
        with lock:
            results.append(item * item)
        q.task_done()


threads = [threading.Thread(target=worker) for _ in range(3)]
for t in threads:
    t.start()
for i in range(10):
    q.put(i)
for _ in threads:
    q.put(None)
q.join()
for t in threads:
    t.join()
print(sorted(results), q.empty(), all(not t.is_alive() for t in threads))
ev = threading.Event()
threading.Thread(target=ev.set).start()
print(ev.wait(5), threading.current_thread().name, threading.main_thread() is threading.current_thread())
lq = queue.LifoQueue()
pq = queue.PriorityQueue()
for v in [3, 1, 2]:
    lq.put(v)
    pq.put(v)
print([lq.get() for _ in range(3)], [pq.get() for _ in range(3)])
try:
    queue.Queue().get_nowait()
except queue.Empty:
    print("queue.Empty")
