"""Learning-rate schedules (1.x's `layers/learning_rate_scheduler.py`).

Each schedule is built as 1.x built it: a global step counter
(`@LR_DECAY_COUNTER@`, int64 `[1]`, started by the startup program and
increased by an `increment` prepended to the main program, so first in
every run), cast to float32, then ordinary Variable arithmetic; every op
the main program gets has `op_role` LRSched. The result is a Variable the
optimizer takes as its learning rate. `piecewise_decay`, `linear_lr_warmup`
and `polynomial_decay(cycle=True)` choose with a `Switch`.
"""
import math

from ..framework import Variable, default_main_program
from ..initializer import Constant
from ..layer_helper import LayerHelper
from . import control_flow
from . import nn
from . import ops
from . import tensor

__all__ = [
    "exponential_decay", "natural_exp_decay", "inverse_time_decay", "polynomial_decay",
    "piecewise_decay", "noam_decay", "cosine_decay", "linear_lr_warmup",
]


def autoincreased_step_counter(counter_name=None, begin=1, step=1):
    """A persistable int64 `[1]` counter of the main program's runs
    (`@STEP_COUNTER@` by default): the startup program sets it to
    `begin - 1` and each run first adds `step`. One per name per program."""
    helper = LayerHelper("global_step_counter")
    if counter_name is None:
        counter_name = "@STEP_COUNTER@"
    counter, is_new_var = helper.create_or_get_global_variable(
        name=counter_name, dtype="int64", shape=[1], persistable=True, stop_gradient=True)
    if is_new_var:
        helper.set_variable_initializer(counter, initializer=Constant(value=begin - 1,
                                                                      force_cpu=True))
        helper.main_program.global_block()._prepend_op(
            type="increment", inputs={"X": [counter]}, outputs={"Out": [counter]},
            attrs={"step": float(step)})
        counter.stop_gradient = True
    return counter


def _decay_step_counter(begin=0):
    """The step as float32; the first step is `begin`."""
    global_step = autoincreased_step_counter(counter_name="@LR_DECAY_COUNTER@", begin=begin,
                                             step=1)
    return tensor.cast(global_step, "float32")


def noam_decay(d_model, warmup_steps, learning_rate=1.0):
    """learning_rate * d_model**-0.5 * min(step**-0.5, warmup_steps**-1.5 * step),
    the step counted from 1 (the Transformer's)."""
    with default_main_program()._lr_schedule_guard():
        global_step = _decay_step_counter(1)
        a = global_step ** -0.5
        b = (warmup_steps ** -1.5) * global_step
        return learning_rate * (d_model ** -0.5) * nn.elementwise_min(a, b)


def _div_res(decay_steps, staircase):
    div_res = _decay_step_counter() / decay_steps
    if staircase:
        div_res = ops.floor(div_res)
    return div_res


def exponential_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    """learning_rate * decay_rate ** (step / decay_steps) (floored with
    `staircase`)."""
    with default_main_program()._lr_schedule_guard():
        div_res = _div_res(decay_steps, staircase)
        return learning_rate * (decay_rate ** div_res)


def natural_exp_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    """learning_rate * exp(-decay_rate * step / decay_steps) (floored with
    `staircase`)."""
    with default_main_program()._lr_schedule_guard():
        div_res = _div_res(decay_steps, staircase)
        return learning_rate * ops.exp(-1 * decay_rate * div_res)


def inverse_time_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    """learning_rate / (1 + decay_rate * step / decay_steps) (floored with
    `staircase`)."""
    with default_main_program()._lr_schedule_guard():
        div_res = _div_res(decay_steps, staircase)
        return learning_rate / (1 + decay_rate * div_res)


def polynomial_decay(learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0,
                     cycle=False):
    """(learning_rate - end) * (1 - step / decay_steps) ** power + end, the
    step held at decay_steps; with `cycle`, decay_steps grows to the next
    multiple of itself instead (at least one period)."""
    with default_main_program()._lr_schedule_guard():
        global_step = _decay_step_counter()
        if cycle:
            div_res = ops.ceil(global_step / decay_steps)
            zero_var = tensor.fill_constant(shape=[1], dtype="float32", value=0.0)
            one_var = tensor.fill_constant(shape=[1], dtype="float32", value=1.0)
            with control_flow.Switch() as switch:
                with switch.case(global_step == zero_var):
                    tensor.assign(input=one_var, output=div_res)
            decay_steps = decay_steps * div_res
        else:
            decay_steps_var = tensor.fill_constant(shape=[1], dtype="float32",
                                                   value=float(decay_steps))
            global_step = nn.elementwise_min(x=global_step, y=decay_steps_var)
        return (learning_rate - end_learning_rate) * \
            ((1 - global_step / decay_steps) ** power) + end_learning_rate


def piecewise_decay(boundaries, values):
    """values[k] while the step is below boundaries[k], then values[-1]:
    the global variable `learning_rate`, set by a Switch each run."""
    with default_main_program()._lr_schedule_guard():
        if len(values) - len(boundaries) != 1:
            raise ValueError("len(values) - len(boundaries) should be 1")
        global_step = _decay_step_counter()
        lr = tensor.create_global_var(shape=[1], value=0.0, dtype="float32", persistable=True,
                                      name="learning_rate")
        with control_flow.Switch() as switch:
            for boundary, value in zip(boundaries, values):
                boundary_val = tensor.fill_constant(shape=[1], dtype="float32",
                                                    value=float(boundary), force_cpu=True)
                with switch.case(global_step < boundary_val):
                    tensor.fill_constant(shape=[1], dtype="float32", value=float(value), out=lr)
            with switch.default():
                tensor.fill_constant(shape=[1], dtype="float32", value=float(values[-1]),
                                     out=lr)
        return lr


def cosine_decay(learning_rate, step_each_epoch, epochs):
    """learning_rate * 0.5 * (cos(epoch * pi / epochs) + 1), the epoch
    floor(step / step_each_epoch)."""
    with default_main_program()._lr_schedule_guard():
        global_step = _decay_step_counter()
        cur_epoch = ops.floor(global_step / step_each_epoch)
        return learning_rate * 0.5 * (ops.cos(cur_epoch * math.pi / epochs) + 1)


def linear_lr_warmup(learning_rate, warmup_steps, start_lr, end_lr):
    """From start_lr to end_lr linearly over the first `warmup_steps` steps,
    then `learning_rate` (a number or a schedule): the global variable
    `learning_rate_warmup`, set by a Switch each run."""
    dtype = learning_rate.dtype if isinstance(learning_rate, Variable) else "float32"
    linear_step = float(end_lr) - float(start_lr)
    with default_main_program()._lr_schedule_guard():
        lr = tensor.create_global_var(shape=[1], value=0.0, dtype=dtype, persistable=True,
                                      name="learning_rate_warmup")
        global_step = _decay_step_counter()
        with control_flow.Switch() as switch:
            with switch.case(global_step < warmup_steps):
                decayed_lr = start_lr + linear_step * (global_step / float(warmup_steps))
                tensor.assign(decayed_lr, lr)
            with switch.default():
                if not isinstance(learning_rate, Variable):
                    learning_rate = tensor.fill_constant(shape=[1], dtype=dtype,
                                                         value=float(learning_rate))
                tensor.assign(learning_rate, lr)
        return lr
