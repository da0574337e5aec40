# Log lines as 2018 training scripts print them: pass/batch/cost with %-formatting, str.format with floats, numpy-free metrics lists.
costs = [2.302585, 1.5432101, 0.98765, 0.5, 0.123456789, 1e-5]
for batch_id, cost in enumerate(costs):
    if batch_id % 2 == 0:
        print("Pass %d, Batch %d, Cost %f" % (0, batch_id, cost))
    print("Pass {0}, Batch {1}, Cost {2:.4f}, Acc {3:.2%}".format(0, batch_id, cost, 1 - cost / 3))
print("Test with Pass %d, Loss %s, Acc %s" % (1, [0.25], [0.9375]))
print("avg_cost=%.6f, avg_acc=%.6f" % (sum(costs) / len(costs), 0.75))
print("Epoch: {:>3d} | loss: {:<10.5f}| lr: {:.2e}".format(7, 0.012345678, 0.00015))
print("%s: %s" % ("mean", sum(costs) / len(costs)), "elapsed: %.1fs" % 12.34, "speed: %.2f samples/sec" % (6400 / 3.7))
print("%-10s|%10s|" % ("name", "value"), "%08.3f" % 3.14159, "%+.2e" % -12345.6789, "%g %g %g" % (1e-5, 123456789.0, 0.0001))
print(str(0.1), str(1 / 3), str(2.0), repr(1e-7), str(123456789.123456789), str(-1.5e-10), 1e16, 1.5e16, 123456789012.0)
