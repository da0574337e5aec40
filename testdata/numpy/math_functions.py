# Element-wise math functions, float32 and float64, bit for bit: numpy's
# own SIMD kernels (float32 exp, log, sin, cos; tanh) and the C library's
# functions (the rest). The reference is numpy's AVX2 dispatch (X86_V3);
# numpy on AVX-512 machines computes some of these differently.
import numpy as np

r = np.random.RandomState(11)
edge = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-40, 88.72, 88.73, -103.9, -104.0, 71477.0, 117436.0, 1e10, 9.01, 20.0, 3e38]
names = ["exp", "log", "tanh", "sin", "cos", "tan", "sqrt", "exp2", "expm1", "log2", "log10", "log1p", "sinh", "cosh",
         "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "cbrt", "square", "reciprocal", "floor", "ceil", "rint", "trunc", "sign"]
with np.errstate(all="ignore"):
    for dt in (np.float32, np.float64):
        x = np.concatenate([np.array(edge), r.randn(40) * 4, np.exp(r.randn(20) * 8)]).astype(dt)
        for name in names:
            y = getattr(np, name)(x)
            print(dt.__name__, name, y.dtype, y)
        print(repr(np.exp(dt(0.5))), repr(np.log(dt(3))), repr(np.tanh(dt(-0.3))), repr(np.sin(dt(1e5))), repr(np.cos(dt(2))))
    i = np.array([-3, 0, 2, 7], dtype=np.int32)
    for name in ["exp", "log", "sqrt", "tanh", "sin", "square", "abs", "sign", "floor", "cbrt"]:
        y = getattr(np, name)(i)
        print("int32", name, y.dtype, y)
    x = (r.randn(50) * 3).astype(np.float32)
    print(1 / (1 + np.exp(-x)))
    print(np.exp(x) / np.sum(np.exp(x)))
    print(np.log(np.abs(x) + 1e-6).sum(), np.tanh(x).mean(), np.power(np.abs(x), 0.5)[:5], x ** 2)
