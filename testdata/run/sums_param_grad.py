# A parameter that reaches the loss only through a non-first input of
# `sums` / `sum` (issue 38): w, a [2] parameter at 0.5, added to a feed by
# sums([x, w]), loss mean(square(.)), one SGD step at lr 0.1. By hand:
# w@GRAD = x + w = [1.5, 2.5], so w becomes [0.35, 0.25]. Variants: w with
# a second consumer (its gradient is a fan-in sum), layers.sum, and w as
# the first input. Then each trainable parameter of each program must get
# exactly one optimizer op, and the grad op writing its gradient carries
# op_role_var = [param, grad] (what data-parallel training reads).
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers


def build(kind, optimizer):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = layers.data(name='x', shape=[2], dtype='float32', append_batch_size=False)
        w = layers.create_parameter(
            shape=[2], dtype='float32',
            attr=fluid.ParamAttr(name='w_' + kind,
                                 initializer=fluid.initializer.Constant(0.5)))
        if kind == 'sums':
            y = layers.sums([x, w])
        elif kind == 'sums_first':
            y = layers.sums([w, x])
        elif kind == 'sum':
            y = layers.sum([x, w])
        elif kind == 'two_consumers':
            y = layers.elementwise_add(layers.sums([x, w]), layers.scale(w, scale=3.0))
        elif kind == 'fc_and_sums':
            h = layers.fc(input=layers.reshape(x, [1, 2]), size=2,
                          param_attr=fluid.ParamAttr(
                              name='fc_w_' + kind,
                              initializer=fluid.initializer.Constant(0.25)),
                          bias_attr=fluid.ParamAttr(
                              name='fc_b_' + kind,
                              initializer=fluid.initializer.Constant(0.1)))
            y = layers.sums([layers.reshape(h, [2]), x, w])
        loss = layers.mean(layers.square(y))
        optimizer().minimize(loss)
    return main, startup, loss


def optimizer_ops(program):
    counts = {}
    for p in program.global_block().all_parameters():
        if not p.trainable:
            continue
        counts[p.name] = 0
        for op in program.global_block().ops:
            if op.type in ('sgd', 'adam', 'momentum') and p.name in op.input('Param'):
                counts[p.name] += 1
    return sorted(counts.items())


exe = fluid.Executor(fluid.CPUPlace())
feed = {'x': np.array([1.0, 2.0], dtype='float32')}
for kind in ['sums', 'sums_first', 'sum', 'two_consumers', 'fc_and_sums']:
    for opt_name, opt in [('sgd', lambda: fluid.optimizer.SGD(learning_rate=0.1)),
                          ('adam', lambda: fluid.optimizer.Adam(learning_rate=0.1))]:
        main, startup, loss = build(kind, opt)
        scope = fluid.Scope()
        with fluid.scope_guard(scope):
            exe.run(startup)
            l, = exe.run(main, feed=feed, fetch_list=[loss])
            print(kind, opt_name, 'loss', np.round(l, 4))
            for name, _ in optimizer_ops(main):
                v = np.array(scope.find_var(name).get_tensor())
                # + 0.0 prints a zero unsigned: Paddle's Adam leaves -0.0
                # for a zero gradient on some CPUs (AVX-512) and +0.0 on others.
                print('  ', name, np.round(v, 4) + 0.0)
        print('   optimizer ops per parameter:', optimizer_ops(main))
        if opt_name == 'sgd':
            # 1.x's append_backward set op_role_var = [param, grad] on the
            # last op writing each parameter's grad; SGD's ops carry it too.
            print('   op_role_var:', [(op.type, op.attr('op_role_var'))
                                       for op in main.global_block().ops
                                       if op.attr('op_role_var')])
