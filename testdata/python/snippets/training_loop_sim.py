# A plain-Python training loop like the 2018 book examples: SGD on a linear model, epoch/batch logging with %-format, early stopping, best model tracking.
import random

random.seed(2018)
data = [(x / 10.0, 3.0 * x / 10.0 + 0.5 + random.uniform(-0.05, 0.05)) for x in range(20)]
w, b, lr = 0.0, 0.0, 0.1
best = (float("inf"), None)
for epoch in range(30):
    random.shuffle(data)
    total = 0.0
    for batch_id in range(0, len(data), 5):
        batch = data[batch_id:batch_id + 5]
        gw = sum(2 * (w * x + b - y) * x for x, y in batch) / len(batch)
        gb = sum(2 * (w * x + b - y) for x, y in batch) / len(batch)
        w -= lr * gw
        b -= lr * gb
        total += sum((w * x + b - y) ** 2 for x, y in batch)
    avg = total / len(data)
    if avg < best[0]:
        best = (avg, (round(w, 4), round(b, 4)))
    if epoch % 10 == 0:
        print("Epoch %d, avg loss %.6f, w=%.4f, b=%.4f" % (epoch, avg, w, b))
    if avg < 0.001:
        print("converged at epoch", epoch)
        break
print("best loss %.6f at w,b=%s" % best)
