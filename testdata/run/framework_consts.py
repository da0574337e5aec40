# 1.x framework.py's special variable names (from the C++ core), as 1.0's
# test_const_value.py and backward-walking scripts used them.
from __future__ import print_function
import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid import framework

print(framework.EMPTY_VAR_NAME, framework.TEMP_VAR_NAME, framework.GRAD_VAR_SUFFIX,
      framework.ZERO_VAR_SUFFIX, framework.CONTROL_DEP_VAR_PREFIX)
print(framework.EMPTY_VAR_NAME == core.kEmptyVarName(),
      framework.TEMP_VAR_NAME == core.kTempVarName(),
      framework.GRAD_VAR_SUFFIX == core.kGradVarSuffix(),
      framework.ZERO_VAR_SUFFIX == core.kZeroVarSuffix(),
      framework.CONTROL_DEP_VAR_PREFIX == core.kControlDepVarName())

main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name="x", shape=[4], dtype="float32")
    h = fluid.layers.fc(input=x, size=3, act="relu",
                        param_attr=fluid.ParamAttr(name="w"), bias_attr=fluid.ParamAttr(name="b"))
    loss = fluid.layers.mean(h)
    params_grads = fluid.backward.append_backward(loss)
for p, g in sorted(params_grads, key=lambda pg: pg[0].name):
    print(p.name, g.name, g.name == p.name + framework.GRAD_VAR_SUFFIX,
          g.name[:-len(framework.GRAD_VAR_SUFFIX)] == p.name)
