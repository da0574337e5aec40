# DQN agent in the style of PaddleRL/DeepQNetwork (2019): the policy and the
# target Q-networks are built in the training program, and a separate sync
# program copies the policy parameters onto the target's with `assign` ops
# that name variables of the training program. Pool and filter sizes come
# from numpy, as PaddleCV/icnet computed them.
import numpy as np
import paddle.fluid as fluid

OBS, ACTIONS = 4, 2
train_program = fluid.Program()
startup = fluid.Program()
sync_program = fluid.Program()


def q_net(obs, prefix, init):
    img = fluid.layers.reshape(obs, shape=[-1, 1, 2, 2])
    k = np.array([2, 2])
    conv = fluid.layers.conv2d(img, num_filters=2, filter_size=k, padding=list(k // 2),
                               param_attr=fluid.ParamAttr(name=prefix + '_conv_w', initializer=init),
                               bias_attr=False)
    size = np.ceil(np.array([3.0, 3.0]) // 2).astype("int32")
    pool = fluid.layers.pool2d(conv, pool_size=[size[0], size[1]], pool_type="avg",
                               pool_stride=tuple(size))
    return fluid.layers.fc(pool, size=ACTIONS,
                           param_attr=fluid.ParamAttr(name=prefix + '_fc_w', initializer=init),
                           bias_attr=fluid.ParamAttr(name=prefix + '_fc_b', initializer=init))


with fluid.program_guard(train_program, startup):
    obs = fluid.layers.data(name='obs', shape=[OBS], dtype='float32')
    action = fluid.layers.data(name='act', shape=[1], dtype='int64')
    target = fluid.layers.data(name='target', shape=[1], dtype='float32')
    q = q_net(obs, 'policy', fluid.initializer.Constant(0.1))
    next_q = q_net(obs, 'target', fluid.initializer.Constant(-0.2))
    onehot = fluid.layers.one_hot(action, ACTIONS)
    pred = fluid.layers.reduce_sum(fluid.layers.elementwise_mul(q, onehot), dim=1, keep_dim=True)
    cost = fluid.layers.reduce_mean(fluid.layers.square_error_cost(pred, target))
    fluid.optimizer.SGD(learning_rate=0.5).minimize(
        cost, parameter_list=[p.name for p in train_program.global_block().all_parameters()
                              if p.name.startswith('policy')])

block = train_program.global_block()
with fluid.program_guard(sync_program):
    for p in sorted(block.all_parameters(), key=lambda p: p.name):
        if p.name.startswith('policy'):
            fluid.layers.assign(p, block.var(p.name.replace('policy', 'target')))

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
scope = fluid.global_scope()


def values(name):
    return np.array(scope.find_var(name).get_tensor())


def show(name):
    v = values(name)
    return "%s sum %.3f" % (list(v.shape), float(v.sum()))


feed = {'obs': np.arange(8).reshape(2, 4).astype('float32') / 8,
        'act': np.array([[0], [1]], 'int64'), 'target': np.array([[1.0], [-1.0]], 'float32')}
for step in range(2):
    c, nq = exe.run(train_program, feed=feed, fetch_list=[cost, next_q])
    print("step", step, "cost %.4f" % float(c.ravel()[0]), "next_q sum %.3f" % float(nq.sum()))
    exe.run(sync_program)
    print("target_fc_w", show('target_fc_w'), "target_conv_w", show('target_conv_w'))
    print("synced", all((values(n) == values(n.replace('policy', 'target'))).all()
                        for n in ['policy_conv_w', 'policy_fc_w', 'policy_fc_b']))
print([op.type for op in sync_program.global_block().ops])
print(sorted(v.name for v in sync_program.global_block().vars.values()))
print(sync_program.global_block().var('target_fc_w').persistable,
      sync_program.global_block().var('policy_fc_w').shape)
# As in 1.x, a lone numpy integer is not a size (1.x took a Python int or an
# iterable of them).
try:
    img = fluid.layers.data(name='img', shape=[1, 2, 2], dtype='float32')
    fluid.layers.pool2d(img, pool_size=np.int32(2))
except ValueError as e:
    print("ValueError:", e)
