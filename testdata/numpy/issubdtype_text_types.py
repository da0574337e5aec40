# keras 2.2's pad_sequences, as 2019 Fluid text programs copied it, asks
# whether the padding value's dtype is text before it builds the batch.
import numpy as np

for dt in [np.dtype('<U5'), 'int32', 'float32', np.int64, np.str_]:
    print(np.issubdtype(dt, np.str_), np.issubdtype(dt, np.bytes_),
          np.issubdtype(dt, np.number), np.issubdtype(dt, np.integer))
print(np.issubdtype(np.float32, np.floating))
