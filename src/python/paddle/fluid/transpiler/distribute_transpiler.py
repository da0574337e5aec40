"""paddle.fluid.transpiler.DistributeTranspiler (1.x): refused, with the way
fluidc trains on several machines instead.

1.x's transpiler rewrote a training program for parameter servers (the
default) or for NCCL2 collective training (`config.mode = "nccl2"`).
Paddle 3.3.1's CPU engine, which trains fluidc's programs, has no
parameter-server ops (send, recv, listen_and_serv), and its collective mode
is driven from outside the script: `fluidc distribute` makes the compiled
programs into trainer programs, and `paddle.distributed.launch` starts them
(docs/distributed.md). A script that calls `transpile` gets that answer
instead of a program that would train alone on each machine.
"""


class DistributeTranspilerConfig(object):
    """1.x's settings for DistributeTranspiler; kept so that scripts that
    build one before calling `transpile` reach the explanation."""

    slice_var_up = True
    split_method = None
    min_block_size = 8192
    enable_dc_asgd = False
    mode = "pserver"
    print_log = False
    wait_port = True


class DistributeTranspiler(object):
    def __init__(self, config=None):
        self.config = config if config is not None else DistributeTranspilerConfig()

    def transpile(self, trainer_id, program=None, pservers="127.0.0.1:6174",
                  trainers=1, sync_mode=True, startup_program=None,
                  current_endpoint="127.0.0.1:6174"):
        mode = getattr(self.config, "mode", "pserver")
        raise NotImplementedError(
            "DistributeTranspiler (%s mode) is not supported by fluidc: Paddle 3.3.1, "
            "the engine that trains fluidc's programs, has no parameter-server ops on CPU, "
            "and collective training is set up outside the script. Compile the script "
            "(fluidc compile train.py -o main.pb --startup-out startup.pb), then "
            "`fluidc distribute main.pb --startup startup.pb --nranks N -o DIR` and "
            "`python -m paddle.distributed.launch --nproc_per_node N DIR/train.py ...` "
            "(docs/distributed.md)" % mode)
