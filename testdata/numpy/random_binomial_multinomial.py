# Sampling a character-level LSTM's next character with np.random.multinomial
# (keras' text generation example, ported to Fluid in 2019) and binomial
# dropout masks: numpy's legacy draws, number for number.
import numpy as np
np.random.seed(3)
a = np.random.binomial(10, 0.5); print(type(a), a)
print(np.random.binomial(10, 0.0), np.random.random_sample())
np.random.seed(3); np.random.binomial(10, 0.5); print(np.random.random_sample())
np.random.seed(3); np.random.binomial(0, 0.3); print(np.random.random_sample())
np.random.seed(3); np.random.binomial(10, 0.5); np.random.binomial(10, 0.0); print(np.random.random_sample())
np.random.seed(5); print(np.random.multinomial(1, [0.0, 0.5, 0.5], 2).tolist(), np.random.random_sample())
np.random.seed(5); print(np.random.multinomial(1, [0.0, 0.5, 0.5]).dtype, np.random.binomial(10, 0.5, 3).dtype)
np.random.seed(7); print(np.random.binomial(1000, 0.3, 5), np.random.binomial(200, 0.9, 3), np.random.binomial([5, 50], 0.4))
try: np.random.multinomial(1, [0.7, 0.7, 0.1])
except ValueError as e: print(e)
try: np.random.binomial(3, 1.5)
except ValueError as e: print(e)
try: np.random.binomial(-1, 0.5)
except ValueError as e: print(e)
np.random.seed(11)
for n, p in [(5, 0.1), (40, 0.3), (100, 0.5), (1000, 0.05), (1000, 0.95), (10000, 0.5), (7, 1.0), (3, 0.0), (60, 0.6)]:
    print(n, p, np.random.binomial(n, p, 6).tolist())
preds = np.exp(np.linspace(-2, 2, 30)); preds /= preds.sum()
for t in [0.2, 1.0]:
    q = np.log(preds) / t; q = np.exp(q) / np.sum(np.exp(q))
    print([int(np.argmax(np.random.multinomial(1, q, 1))) for _ in range(20)])
print(np.random.multinomial(100, [0.2] * 5, size=(2, 2)).tolist())
print(np.random.binomial(np.array([[10], [20]]), [0.5, 0.2, 0.9]).tolist(), np.random.binomial(10, 0.5, size=(2, 3)).shape)
print(np.random.random_sample())
