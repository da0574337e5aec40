# One error for one failed value (`fluidc check`): a numpy call fluidc does not
# know is reported once; indexing, arithmetic on and printing its result are
# no further errors.
import numpy as np

a = np.frobnicate([1, 2])
print(a[0])
b = a * 2 + 1
print(b.shape, len(a))
