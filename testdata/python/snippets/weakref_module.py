# weakref: ref() to a live object, callback when collected, WeakValueDictionary entries dropped, WeakSet, proxies.
import gc
import weakref


class Node:
    def __init__(self, name):
        self.name = name


n = Node("a")
r = weakref.ref(n, lambda ref: print("callback: collected"))
print(r() is n, r().name)
del n
gc.collect()
print(r())
cache = weakref.WeakValueDictionary()
obj = Node("b")
cache["k"] = obj
print(len(cache), "k" in cache, cache["k"].name)
del obj
gc.collect()
print(len(cache), list(cache.keys()))
ws = weakref.WeakSet()
keep = Node("c")
ws.add(keep)
ws.add(Node("d"))
gc.collect()
print(len(ws), [x.name for x in ws])
p = weakref.proxy(keep)
print(p.name, weakref.getweakrefcount(keep) >= 1)
