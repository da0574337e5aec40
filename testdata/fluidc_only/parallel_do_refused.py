# 1.x's get_places / ParallelDo (fluidc only: Paddle 3.3.1 has neither a
# get_places nor a parallel_do op). The 2018 book tests built, when
# `parallel` was on: places = get_places(); pd = ParallelDo(places).
# get_places is 1.x's layer (a deprecation note on stderr, a get_places op
# writing a PLACE_LIST variable, not exported as fluid.layers.get_places);
# ParallelDo raises NotImplementedError naming what replaced it.
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
assert note == ("API get_places is deprecated since 0.15.0. "
                "Please use ParallelExecutor instead.\n"), note
assert places.type == fluid.core.VarDesc.VarType.PLACE_LIST, places.type
op = program.global_block().ops[-1]
assert op.type == 'get_places', op.type
assert op.output('Out') == [places.name], (op.output('Out'), places.name)
assert op.attr('device_count') == 2 and op.attr('device_type') == 'CPU'
assert not hasattr(fluid.layers, 'get_places')
assert fluid.layers.ParallelDo is ParallelDo
try:
    ParallelDo(places)
    raise AssertionError('ParallelDo built')
except NotImplementedError as e:
    assert 'ParallelExecutor' in str(e) and 'with_data_parallel' in str(e), str(e)
print('ok')
