# Ops as 1.x's op tests saw them: adadelta had no LearningRate (a step of
# 1), generate_proposals no RpnRoisNum, roi_perspective_transform no Mask
# or TransformMatrix (Paddle added them later); OpProtoHolder lists 1.x's
# slots, and an adadelta written without a learning rate runs.
# fluidc only: Paddle 3.3.1 requires the later slots. Checked against
# numpy's adadelta.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid.framework import OpProtoHolder
from paddle.fluid.op import Operator

holder = OpProtoHolder.instance()
print([i.name for i in holder.get_op_proto('adadelta').inputs])
print([o.name for o in holder.get_op_proto('generate_proposals').outputs])
print([o.name for o in holder.get_op_proto('roi_perspective_transform').outputs])

rng = np.random.RandomState(2)
param, grad = rng.rand(3, 4).astype('float32'), rng.rand(3, 4).astype('float32')
asg, asu = rng.rand(3, 4).astype('float32'), rng.rand(3, 4).astype('float32')
scope = core.Scope()
for name, value in [('Param', param), ('Grad', grad), ('AvgSquaredGrad', asg),
                    ('AvgSquaredUpdate', asu)]:
    scope.var(name).get_tensor().set(value, core.CPUPlace())
op = Operator('adadelta', Param='Param', Grad='Grad', AvgSquaredGrad='AvgSquaredGrad',
              AvgSquaredUpdate='AvgSquaredUpdate', ParamOut='Param',
              AvgSquaredGradOut='AvgSquaredGrad', AvgSquaredUpdateOut='AvgSquaredUpdate',
              rho=0.95, epsilon=1e-6)
op.run(scope, core.CPUPlace())
rho, eps = 0.95, 1e-6
asg_out = rho * asg + (1 - rho) * grad * grad
update = -np.sqrt((asu + eps) / (asg_out + eps)) * grad
want = param + update
got = np.array(scope.find_var('Param').get_tensor())
assert np.allclose(got, want, atol=1e-6), np.abs(got - want).max()
print('adadelta without a learning rate steps by 1')
