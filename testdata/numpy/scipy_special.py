# scipy.special's expit, erf and logit, with which Paddle's 2018-19 op tests
# (test_activation_op, test_sigmoid_cross_entropy_with_logits_op) computed
# their expected values: float32 stays float32, scalars stay scalars.
import numpy as np
from scipy.special import expit, erf, logit
x = np.linspace(-3, 3, 7).astype('float32')
for f in (expit, erf):
    y = f(x)
    print(f.__name__, y.dtype, np.round(y, 6).tolist())
print(expit(0.5), erf(0.5), type(expit(0.5)).__name__)
print(np.round(logit(np.array([0.1, 0.5, 0.9])), 6).tolist(), logit(np.float32(0.25)).dtype)
print(np.round(erf(np.array([[0.1, -1.2], [2.0, 0.0]])), 8).tolist())
