# numpy scalars are numbers.Number (numpy registers its scalar types with the
# numbers ABCs): PaddleCV/video's youtube8m AveragePrecisionCalculator (2019)
# checks `isinstance(num_positives, numbers.Number)` on a sum of np.sum()s.
import numbers
import numpy as np

labels = np.array([[0, 1, 1], [1, 0, 1]], dtype=np.float32)
num_positives = sum([np.sum(labels[:, i]) for i in range(3)])
print(type(num_positives).__name__, num_positives,
      isinstance(num_positives, numbers.Number) and num_positives >= 0)
for v in [np.float32(1.5), np.float64(2.0), np.int64(3), np.int32(4), np.uint8(5),
          np.bool_(True), np.array(3.0), np.sum(np.arange(3)), np.float32(2) * 2]:
    print(type(v).__name__, [isinstance(v, t) for t in (numbers.Number, numbers.Complex,
          numbers.Real, numbers.Rational, numbers.Integral)])
print(issubclass(np.floating, numbers.Real), issubclass(np.integer, numbers.Integral),
      issubclass(np.number, numbers.Number), issubclass(np.bool_, numbers.Number))
