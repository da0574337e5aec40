# Float precision through struct: float32 rounding of common values, float64 exactness, NaN/inf round trips, the packed bytes.
import math
import struct

for v in [0.1, 1 / 3, 1e-8, 3.4028235e38, 16777217.0, -0.0]:
    f32 = struct.unpack("<f", struct.pack("<f", v))[0]
    f64 = struct.unpack("<d", struct.pack("<d", v))[0]
    print(v, f32, f64 == v, struct.pack("<f", v).hex())
print(math.isnan(struct.unpack("<f", struct.pack("<f", float("nan")))[0]), struct.unpack("<d", struct.pack("<d", float("-inf")))[0])
