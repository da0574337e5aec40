# 1.x's get_places / ParallelDo checks, as 1.0's Python made them
# (layers/device.py, layers/control_flow.py). fluidc runs the block on
# one place (no sub-block, no parallel_do op): what is checked here is
# what the build looks like and what it refuses; testdata/run/
# parallel_do_mlp.py compares the training with Paddle's.
import io
import sys

import paddle.fluid as fluid
from paddle.fluid.layers.control_flow import ParallelDo
from paddle.fluid.layers.device import get_places

program = fluid.Program()
err, sys.stderr = sys.stderr, io.StringIO()
try:
    with fluid.program_guard(program, fluid.Program()):
        places = get_places(device_count=2, device_type='CPU')
    note = sys.stderr.getvalue()
finally:
    sys.stderr = err
# get_places: 1.x's note on stderr and PLACE_LIST variable; not exported as
# fluid.layers.get_places (device.__all__ was empty). No op writes it here.
assert note == ("API get_places is deprecated since 0.15.0. "
                "Please use ParallelExecutor instead.\n"), note
assert places.type == fluid.core.VarDesc.VarType.PLACE_LIST, places.type
assert [op.type for op in program.global_block().ops] == []
assert not hasattr(fluid.layers, 'get_places')
assert fluid.layers.ParallelDo is ParallelDo


def raises(exc, fn, text):
    try:
        fn()
    except exc as e:
        assert text in str(e), str(e)
        return
    raise AssertionError('no %s' % exc.__name__)


main = fluid.Program()
with fluid.program_guard(main, fluid.Program()):
    x = fluid.layers.data(name='x', shape=[3], dtype='float32')
    y = fluid.layers.data(name='y', shape=[1], dtype='float32')
    pd = ParallelDo(places)
    # 1.x: pd() before, and inside, the block is a ValueError.
    raises(ValueError, pd, 'RNN output can only be retrieved after rnn block')
    with pd.do():
        raises(ValueError, pd, 'RNN output can only be retrieved after rnn block')
        x_ = pd.read_input(x)
        y_ = pd.read_input(y)
        assert x_ is x and y_ is y
        pred = fluid.layers.fc(input=x_, size=1)
        loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y_))
        pd.write_output(loss)
        pd.write_output(pred)
    # Several outputs: the list, in write order; the block's ops are in
    # the enclosing (global) block.
    out = pd()
    assert isinstance(out, list) and [v.name for v in out] == [loss.name, pred.name]
    assert main.num_blocks == 1, main.num_blocks
    assert 'parallel_do' not in [op.type for op in main.global_block().ops]
    fluid.optimizer.SGD(learning_rate=0.1).minimize(fluid.layers.mean(out[0]))
    assert main.num_blocks == 1, main.num_blocks

    # A block that writes nothing: 1.x's ValueError.
    empty = ParallelDo(places)
    with empty.do():
        pass
    raises(ValueError, empty, 'RNN has no output')

    # An exception inside the block propagates; the status stays "in".
    broken = ParallelDo(places)
    try:
        with broken.do():
            raise KeyError('inside')
    except KeyError:
        pass
    raises(ValueError, broken, 'RNN output can only be retrieved after rnn block')

    # use_nccl=True is not ignored: NCCL needs CUDA places.
    raises(NotImplementedError, lambda: ParallelDo(places, use_nccl=True), 'use_nccl=True')
print('ok')
