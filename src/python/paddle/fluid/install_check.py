"""paddle.fluid.install_check: 1.5-1.6's `run_check()`, which trains a
tiny program on one place, then data-parallel on two, and prints what
1.x printed on a CPU machine. 1.x built the program with a dygraph `FC`
layer (in static mode); fluidc builds the same program with `layers.fc`."""

import numpy as np

from . import backward
from . import compiler
from . import core
from . import executor
from . import layers
from . import optimizer
from . import unique_name
from .framework import Program, program_guard, cuda_places
from .initializer import Constant
from .param_attr import ParamAttr

__all__ = ['run_check']


def _simple_layer(inp):
    """1.x's SimpleLayer: an fc of 3 (weights 0.1), summed."""
    out = layers.fc(input=inp, size=3,
                    param_attr=ParamAttr(name="simple_layer/FC_0.w_0",
                                         initializer=Constant(value=0.1)))
    return layers.reduce_sum(out)


def _place():
    if core.is_compiled_with_cuda() and core.get_cuda_device_count() > 0:
        return core.CUDAPlace(0)
    return core.CPUPlace()


def run_check():
    """Checks that fluid runs a program on one place and on several,
    printing what 1.x printed."""
    print("Running Verify Fluid Program ... ")

    if core.is_compiled_with_cuda():
        try:
            core.get_cuda_device_count()
        except Exception as e:
            import logging
            logging.warning(
                "You are using GPU version Paddle Fluid, But Your CUDA Device is not set properly"
                "\n Original Error is {}".format(e))
            return 0
        device_list = cuda_places()
    else:
        device_list = [core.CPUPlace(), core.CPUPlace()]

    np_inp_single = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    np_inp_multi = np.array([np_inp_single] * len(device_list)).reshape(len(device_list), 2, 2)

    def test_parallel_exe():
        train_prog, startup_prog = Program(), Program()
        with executor.scope_guard(core.Scope()):
            with program_guard(train_prog, startup_prog):
                with unique_name.guard():
                    build_strategy = compiler.BuildStrategy()
                    build_strategy.enable_inplace = True
                    build_strategy.memory_optimize = True
                    inp = layers.data(name="inp", shape=[2, 2])
                    out = _simple_layer(inp)
                    exe = executor.Executor(_place())
                    loss = layers.mean(out)
                    loss.persistable = True
                    optimizer.SGD(learning_rate=0.01).minimize(loss)
                    startup_prog.random_seed = 1
                    compiled_prog = compiler.CompiledProgram(train_prog).with_data_parallel(
                        build_strategy=build_strategy, loss_name=loss.name, places=device_list)
                    exe.run(startup_prog)
                    exe.run(compiled_prog, feed={inp.name: np_inp_multi},
                            fetch_list=[loss.name])

    def test_simple_exe():
        train_prog, startup_prog = Program(), Program()
        with executor.scope_guard(core.Scope()):
            with program_guard(train_prog, startup_prog):
                with unique_name.guard():
                    inp0 = layers.data(name="inp", shape=[2, 2], append_batch_size=False)
                    out0 = _simple_layer(inp0)
                    param_grads = backward.append_backward(
                        out0, parameter_list=["simple_layer/FC_0.w_0"])[0]
                    exe0 = executor.Executor(_place())
                    exe0.run(startup_prog)
                    exe0.run(feed={inp0.name: np_inp_single},
                             fetch_list=[out0.name, param_grads[1].name])

    test_simple_exe()

    print("Your Paddle Fluid works well on SINGLE GPU or CPU.")
    try:
        test_parallel_exe()
        print("Your Paddle Fluid works well on MUTIPLE GPU or CPU.")
        print("Your Paddle Fluid is installed successfully! Let's start deep Learning with "
              "Paddle Fluid now")
    except Exception as e:
        import logging
        logging.warning(
            "Your Paddle Fluid has some problem with multiple GPU. This may be caused by:"
            "\n 1. There is only 1 or 0 GPU visible on your Device;"
            "\n 2. No.1 or No.2 GPU or both of them are occupied now"
            "\n 3. Wrong installation of NVIDIA-NCCL2, please follow instruction on "
            "https://github.com/NVIDIA/nccl-tests "
            "\n to test your NCCL, or reinstall it following "
            "https://docs.nvidia.com/deeplearning/sdk/nccl-install-guide/index.html")
        print("\n Original Error is: {}".format(e))
        print("Your Paddle Fluid is installed successfully ONLY for SINGLE GPU or CPU! "
              "\n Let's start deep Learning with Paddle Fluid now")
