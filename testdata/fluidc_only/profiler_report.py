# fluid.profiler as 2018 scripts used it (fluidc only: the times are the
# runtime's own, and Paddle 3.3.1's profiler prints another table): runs
# inside `with profiler.profiler('CPU', sorted_key, path)` print, on
# stdout, Paddle 1.2's report (banner, place, unit, sort order, one
# `thread0::<op type>` row per op type with calls, total, min., max., ave.
# in ms and ratio), and write the timeline to `path` as a serialized
# paddle.platform.proto.Profile. What is asserted is what does not depend
# on timing: the layout, the rows, the call counts (each op of the program
# once per run, and 1.x's feed and fetch ops once per fed and fetched
# variable), the orders, and the timeline's events.
import io
import os
import shutil
import sys
import tempfile

import numpy as np
import paddle.fluid as fluid
import paddle.fluid.profiler as profiler

x = fluid.layers.data(name='x', shape=[4], dtype='float32')
y = fluid.layers.fc(input=x, size=2, param_attr=fluid.initializer.Constant(0.5))
loss = fluid.layers.mean(y)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'x': np.ones((3, 4), dtype='float32')}
tmp = tempfile.mkdtemp()


def profiled(runs, sorted_key=None, reset_after_first=False, state='CPU'):
    """The lines of the report printed around `runs` runs, and the
    timeline's path."""
    path = os.path.join(tmp, 'profile_%s' % sorted_key)
    out, sys.stdout = sys.stdout, io.StringIO()
    try:
        with profiler.profiler(state, sorted_key, path):
            for i in range(runs):
                exe.run(feed=feed, fetch_list=[loss])
                if reset_after_first and i == 0:
                    profiler.reset_profiler()
        report = sys.stdout.getvalue()
    finally:
        sys.stdout = out
    return report.split('\n'), path


RUN_OPS = ['feed', 'mul', 'elementwise_add', 'mean', 'fetch']
lines, path = profiled(3)
assert lines[:7] == [
    '', '------------------------->     Profiling Report     <-------------------------', '',
    'Place: CPU', 'Time unit: ms',
    'Sorted by event first end time in descending order in the same thread', ''], lines[:7]
width = len('thread0::elementwise_add') + 4
assert lines[7] == 'Event'.ljust(width) + ''.join(
    h.ljust(12) for h in ('Calls', 'Total', 'Min.', 'Max.', 'Ave.', 'Ratio.')), lines[7]
rows = lines[8:-2]
assert lines[-2:] == ['', ''], lines[-2:]
names = [r.split()[0] for r in rows]
assert names == ['thread0::' + t for t in RUN_OPS], names
ratio = 0.0
for row in rows:
    name = row[:width].strip()
    cells = row[width:].split()
    assert row[width:] == ''.join(c.ljust(12) for c in cells), row
    calls, total, least, most, ave, share = int(cells[0]), *map(float, cells[1:])
    assert calls == 3, row
    assert 0 <= least <= ave <= most <= total, row
    ratio += share
assert abs(ratio - 1.0) < 1e-4, ratio


def read_varint(data, at):
    shift = value = 0
    while True:
        b = data[at]
        at += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, at


def fields(data):
    at, out = 0, []
    while at < len(data):
        key, at = read_varint(data, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, at = read_varint(data, at)
        else:
            n, at = read_varint(data, at)
            value, at = data[at:at + n], at + n
        out.append((number, value))
    return out


with open(path, 'rb') as f:
    profile = fields(f.read())
events = [dict(fields(v)) for n, v in profile if n == 1]
begin, end = dict(profile)[2], dict(profile)[3]
assert len(events) == 15, len(events)
assert sorted(set(e[1].decode() for e in events)) == sorted(RUN_OPS), events
for e in events:
    assert begin <= e[2] <= e[3] <= end, (begin, e, end)
    assert e[8] == 0 and e[5] == (1 << 64) - 1, e  # a CPU event, device -1

# reset_profiler forgets the first run; sorted keys order the rows.
lines, _ = profiled(4, 'calls', reset_after_first=True)
assert lines[5] == 'Sorted by number of calls in descending order in the same thread'
assert [int(r[width:].split()[0]) for r in lines[8:-2]] == [3] * 5, lines
for key, column in (('total', 1), ('max', 3), ('min', 2), ('ave', 4)):
    lines, _ = profiled(2, key)
    values = [float(r[width:].split()[column]) for r in lines[8:-2]]
    assert values == sorted(values, reverse=True), (key, lines)

# Outside a profiler nothing is recorded, and stop does nothing.
exe.run(feed=feed, fetch_list=[loss])
profiler.stop_profiler('total', os.path.join(tmp, 'never'))
assert not os.path.exists(os.path.join(tmp, 'never'))

# start/stop by hand, and what a CPU-only 1.x refused.
for bad in ('TPU', 'cpu'):
    try:
        profiler.start_profiler(bad)
        raise AssertionError('state %r accepted' % bad)
    except ValueError:
        pass
profiler.start_profiler('CPU')
try:
    profiler.stop_profiler('fastest')
    raise AssertionError('sorted_key accepted')
except ValueError:
    pass
out, sys.stdout = sys.stdout, io.StringIO()
try:
    profiler.stop_profiler(None, os.path.join(tmp, 'empty'))
finally:
    sys.stdout = out
for state in ('GPU', 'All'):
    try:
        profiled(1, state=state)
        raise AssertionError('%s state reported on the CPU' % state)
    except fluid.core.EnforceNotMet as e:
        assert 'CUDA is not enabled' in str(e), e
for mode, error in (('xml', ValueError), ('csv', AttributeError)):
    try:
        with profiler.cuda_profiler(os.path.join(tmp, 'nvprof'), mode):
            pass
        raise AssertionError('cuda_profiler ran')
    except error:
        pass
shutil.rmtree(tmp)
print('ok')
