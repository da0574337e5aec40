# paddle.fluid.default_scope_funcs: 1.x's thread-local stack of scopes
# (1.0's test_default_scope_funcs.py style).
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.default_scope_funcs as dsf

root = dsf.get_cur_scope()
print(root is dsf.get_cur_scope(), dsf.find_var("a") is None)
a = dsf.var("a")
print(dsf.find_var("a") is not None)
t = a.get_tensor()
t.set(np.array([1.5, 2.5], dtype="float32"), fluid.CPUPlace())

dsf.enter_local_scope()
local = dsf.get_cur_scope()
print(local is not root, dsf.find_var("a") is not None)
print(np.array(dsf.find_var("a").get_tensor()).tolist())
dsf.var("b")
print(dsf.find_var("b") is not None, root.find_var("b") is None)
dsf.leave_local_scope()
print(dsf.get_cur_scope() is root, dsf.find_var("b") is None)

seen = []


def inner():
    seen.append(dsf.get_cur_scope() is not root)
    dsf.var("c")
    seen.append(dsf.find_var("a") is not None and dsf.find_var("c") is not None)


dsf.scoped_function(inner)
print(seen, dsf.find_var("c") is None, dsf.get_cur_scope() is root)


def failing():
    dsf.var("d")
    raise KeyError("inside")


try:
    dsf.scoped_function(failing)
except KeyError as e:
    print("KeyError", e, dsf.get_cur_scope() is root, dsf.find_var("d") is None)

# nested local scopes see all their parents
dsf.enter_local_scope()
dsf.var("e")
dsf.enter_local_scope()
print(dsf.find_var("a") is not None, dsf.find_var("e") is not None)
dsf.leave_local_scope()
dsf.leave_local_scope()
print(sorted(n for n in ("a", "b", "c", "d", "e") if dsf.find_var(n) is not None))
