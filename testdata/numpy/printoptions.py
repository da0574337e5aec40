# Print options (precision, suppress, floatmode, linewidth, threshold,
# edgeitems) on random float arrays with NaN and infinities.
import numpy as np
r = np.random.RandomState(123)
out = []
for trial in range(120):
    dt = [np.float32, np.float64][trial % 2]
    shape = [(5,), (3, 4), (2, 2, 3), (1,), (40,)][trial % 5]
    scale = 10.0 ** r.randint(-9, 10)
    a = (r.randn(*shape) * scale).astype(dt)
    if trial % 7 == 0:
        a.flat[0] = np.nan
    if trial % 11 == 0:
        a.flat[a.size - 1] = -np.inf
    if trial % 13 == 0:
        a = np.round(a)
    opts = dict(precision=int(r.randint(0, 10)), suppress=bool(r.randint(2)),
                floatmode=["fixed", "unique", "maxprec", "maxprec_equal"][r.randint(4)],
                linewidth=int(r.randint(20, 120)), threshold=int(r.randint(3, 50)), edgeitems=int(r.randint(1, 4)))
    with np.printoptions(**opts):
        print(opts)
        print(a)
        print(repr(a))
