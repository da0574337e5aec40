# time: time() differences are non-negative and small, sleep, perf_counter, monotonic, gmtime/strftime of fixed timestamps, struct_time fields.
import time

start = time.time()
time.sleep(0.01)
elapsed = time.time() - start
print(elapsed >= 0.005, elapsed < 60)
t0 = time.perf_counter()
t1 = time.perf_counter()
print(t1 >= t0, time.monotonic() > 0, isinstance(time.time(), float), time.time() > 1.5e9)
print("cost %.2f sec" % 0.0)
g = time.gmtime(1536000000)
print(g.tm_year, g.tm_mon, g.tm_mday, g.tm_hour, g.tm_min, g.tm_wday, g.tm_yday, tuple(g))
print(time.strftime("%Y-%m-%d %H:%M:%S", g), time.strftime("%a %b %d %j %p", g), time.asctime(g))
print(time.mktime(time.strptime("2019-01-02 03:04:05", "%Y-%m-%d %H:%M:%S")) - time.timezone == 1546398245.0)
print(time.gmtime(0)[:3], time.localtime(0).tm_year)
print(time.strftime("%%Y %d/%m/%y", time.gmtime(86400 * 365.25 * 30)))
