# 1.0's pybind Variable and SelectedRows, as its unittests used them
# (test_scope.py, test_selected_rows.py, test_variable set_int): a kid
# scope finds its parent's variables, a variable holds an int or a float,
# a SelectedRows keeps its rows, height and values.
import numpy as np
import paddle.fluid.core as core

scope = core.Scope()
scope.var("parent_var")
kid = scope.new_scope()
print(kid.find_var("parent_var") is not None, kid.find_var("nowhere") is None)
print(scope.find_var("kid_var") is None)

step = scope.var("step")
print(step.is_int())
step.set_int(10)
print(step.is_int(), step.get_int(), step.is_float())
step.set_int(-7)
print(kid.find_var("step").get_int())
lr = scope.var("lr")
lr.set_float(0.1)
print(lr.is_float(), lr.is_int(), round(lr.get_float(), 6))

place = core.CPUPlace()
sr = core.SelectedRows([0, 4, 7], 10)
print(list(sr.rows()), sr.height())
values = np.arange(3 * 4, dtype="float32").reshape(3, 4)
sr.get_tensor().set(values, place)
print(np.array(sr.get_tensor()).tolist(), sr.numel())
sr.set_rows([1, 1, 9])
sr.set_height(20)
print(list(sr.rows()), sr.height())
t = sr.get_tensor()
print(t._get_float_element(0), t._get_float_element(5), t._get_float_element(11))

empty = core.SelectedRows()
print(list(empty.rows()), empty.height())

held = scope.var("grad").get_selected_rows()
held.set_height(6)
held.set_rows([5, 0])
held.get_tensor().set(np.ones((2, 3), dtype="float32"), place)
again = scope.find_var("grad").get_selected_rows()
print(list(again.rows()), again.height(), np.array(again.get_tensor()).shape)
