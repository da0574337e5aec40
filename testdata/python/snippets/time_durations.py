# Measuring durations like training scripts: time.time deltas rounded to stable output, perf_counter_ns, process_time types, sleep ordering.
import time

start = time.time()
time.sleep(0.02)
cost = time.time() - start
print("sleep took at least 10ms:", cost >= 0.01, "under a minute:", cost < 60)
ns0 = time.perf_counter_ns()
time.sleep(0.001)
print(type(time.perf_counter_ns() - ns0).__name__, time.perf_counter_ns() > ns0, type(time.time_ns()).__name__)
print(type(time.process_time()).__name__, type(time.monotonic_ns()).__name__, time.get_clock_info("monotonic").monotonic)
t0 = time.monotonic()
total = sum(i * i for i in range(10000))
print(total, time.monotonic() >= t0, "%.1f" % 0.0)
