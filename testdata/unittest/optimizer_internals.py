# test_optimizer style (2018-19): a program built by hand with
# block.create_parameter / create_var / append_op, then an optimizer's
# update pass (minimize or, under program_guard, apply_gradients), and
# what 1.x let a test see of it: the ops the pass returns, the
# `_accumulators` dict ({accumulator: {param: var}}) under the optimizer's
# `_*_acc_str` names, and the startup program's fill_constant ops.
import unittest

import paddle.fluid.framework as framework
import paddle.fluid.optimizer as optimizer
from paddle.fluid.backward import append_backward


def build(lr_scale=1.1):
    program = framework.Program()
    block = program.global_block()
    mul_x = block.create_parameter(dtype="float32", shape=[3, 4], lod_level=0, name="fc.w",
                                   optimize_attr={'learning_rate': lr_scale})
    mul_y = block.create_var(dtype="float32", shape=[4, 2], lod_level=0, name="fc.in")
    mul_out = block.create_var(dtype="float32", shape=[3, 2], lod_level=0, name="fc.out")
    block.append_op(type="mul", inputs={"X": mul_x, "Y": mul_y}, outputs={"Out": mul_out},
                    attrs={"x_num_col_dims": 1})
    mean_out = block.create_var(dtype="float32", shape=[1], lod_level=0, name="fc.mean")
    block.append_op(type="mean", inputs={"X": mul_out}, outputs={"Out": mean_out})
    return program, mul_x, mean_out


def apply_pass(opt, lr_scale=1.1):
    program, param, loss = build(lr_scale)
    init_program = framework.Program()
    params_grads = append_backward(loss)
    with framework.program_guard(program, init_program):
        opts = opt.apply_gradients(params_grads)
    return opts, param, init_program


class TestMinimize(unittest.TestCase):
    def test_sgd_minimize_returns_the_pass(self):
        for lr_scale, types in [(1.1, ["scale", "sgd"]), (1.0, ["sgd"])]:
            program, param, loss = build(lr_scale)
            init_program = framework.Program()
            opts, params_grads = optimizer.SGDOptimizer(learning_rate=0.05).minimize(
                loss, init_program)
            self.assertEqual([op.type for op in opts], types)
            self.assertEqual([p.name for p, g in params_grads], ["fc.w"])
            self.assertEqual(opts[-1].input("Param"), ["fc.w"])
            init_ops = init_program.global_block().ops
            self.assertEqual([op.type for op in init_ops], ["fill_constant"])
            self.assertAlmostEqual(init_ops[0].attr('value'), 0.05)

    def test_momentum_accumulators(self):
        class MockMomentum(optimizer.MomentumOptimizer):
            def get_accumulators(self):
                return self._accumulators

        opt = MockMomentum(learning_rate=0.02, momentum=0.5, use_nesterov=True)
        self.assertEqual(len(opt.get_accumulators()), 0)
        opts, param, init_program = apply_pass(opt)
        self.assertEqual([op.type for op in opts], ["scale", "momentum"])
        self.assertTrue(opts[-1].attr('use_nesterov'))
        accumulators = opt.get_accumulators()
        self.assertEqual(list(accumulators), [opt._velocity_acc_str])
        velocity = accumulators[opt._velocity_acc_str]
        self.assertEqual(list(velocity), [param.name])
        self.assertEqual(opts[-1].input("Velocity"), [velocity[param.name].name])
        self.assertEqual(list(velocity[param.name].shape), [3, 4])
        init_ops = init_program.global_block().ops
        self.assertEqual(len(init_ops), 2)
        self.assertAlmostEqual(init_ops[0].attr('value'), 0.02)
        self.assertAlmostEqual(init_ops[1].attr('value'), 0.0)


class TestCreateOptimizationPass(unittest.TestCase):
    class MockAdagrad(optimizer.AdagradOptimizer):
        def get_accumulators(self):
            return self._accumulators

        def get_moment_str(self):
            return self._moment_acc_str

    def test_loss_and_startup_program_arguments(self):
        # 1.0-1.4's signature: (parameters_and_grads, loss, startup_program).
        program, param, loss = build()
        init_program = framework.Program()
        opt = self.MockAdagrad(learning_rate=0.03, epsilon=1.0e-6)
        params_grads = append_backward(loss)
        self.assertEqual(len(opt.get_accumulators()), 0)
        opts = opt._create_optimization_pass(params_grads, loss, init_program)
        self.assertEqual([op.type for op in opts], ["scale", "adagrad"])
        self.assertEqual([op.type for op in program.global_block().ops][-2:],
                         ["scale", "adagrad"])
        moment = opt.get_accumulators()[opt.get_moment_str()]
        self.assertEqual(list(moment), [param.name])
        self.assertEqual(opts[-1].output("MomentOut"), [moment[param.name].name])
        init_ops = init_program.global_block().ops
        self.assertEqual([op.type for op in init_ops], ["fill_constant", "fill_constant"])
        self.assertAlmostEqual(init_ops[0].attr('value'), 0.03)


class TestAccumulators(unittest.TestCase):
    def check(self, opt, types, names, n_init):
        opts, param, init_program = apply_pass(opt)
        self.assertEqual([op.type for op in opts], types)
        accumulators = opt._accumulators
        self.assertEqual(sorted(accumulators), sorted(getattr(opt, n) for n in names))
        for name in names:
            self.assertEqual(list(accumulators[getattr(opt, name)]), [param.name])
        init_ops = init_program.global_block().ops
        self.assertEqual(len(init_ops), n_init)
        self.assertEqual(init_ops[0].type, "fill_constant")
        return opts

    def test_adam(self):
        self.check(optimizer.AdamOptimizer(learning_rate=0.01),
                   ["scale", "adam"],
                   ["_moment1_acc_str", "_moment2_acc_str", "_beta1_pow_acc_str",
                    "_beta2_pow_acc_str"], 5)

    def test_adamax(self):
        opts = self.check(optimizer.AdamaxOptimizer(learning_rate=0.01, beta1=0.8),
                          ["scale", "adamax", "scale"],
                          ["_moment_acc_str", "_inf_norm_acc_str", "_beta1_pow_acc_str"], 4)
        self.assertAlmostEqual(opts[-1].attr('scale'), 0.8)

    def test_decayed_adagrad(self):
        self.check(optimizer.DecayedAdagradOptimizer(learning_rate=0.01, decay=0.9),
                   ["scale", "decayed_adagrad"], ["_moment_acc_str"], 2)

    def test_rmsprop(self):
        self.check(optimizer.RMSPropOptimizer(learning_rate=0.01),
                   ["scale", "rmsprop"],
                   ["_momentum_acc_str", "_mean_square_acc_str", "_mean_grad_acc_str"], 4)

    def test_adadelta(self):
        self.check(optimizer.AdadeltaOptimizer(learning_rate=0.01),
                   ["scale", "adadelta"],
                   ["_avg_squared_grad_acc_str", "_avg_squared_update_acc_str"], 3)

    def test_ftrl(self):
        self.check(optimizer.FtrlOptimizer(learning_rate=0.01, l1=0.1, l2=0.1),
                   ["scale", "ftrl"], ["_squared_acc_str", "_linear_acc_str"], 3)

    def test_named_optimizer(self):
        opt = optimizer.MomentumOptimizer(learning_rate=0.01, momentum=0.9, name="m")
        opts, param, init_program = apply_pass(opt, 1.0)
        self.assertEqual([op.type for op in opts], ["momentum"])
        self.assertEqual(list(opt._accumulators), ["m_velocity"])
        self.assertEqual(opt._accumulators["m_velocity"][param.name].name,
                         "fc.w_m_velocity_0")


if __name__ == '__main__':
    unittest.main()
