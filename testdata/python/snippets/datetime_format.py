# datetime strftime/strptime: common directives, zero padding, %j %U %A %B %p %f %%, parsing back, timedelta str/repr and totals.
import datetime as dt

t = dt.datetime(2018, 7, 4, 15, 6, 7, 89)
for fmt in ["%Y-%m-%d %H:%M:%S", "%y%m%d_%H%M", "%A %B %d", "%a %b %e" if False else "%a %b", "%I:%M %p", "%j %U %W", "%f", "%%Y", "%d/%m/%Y", "%H.%M.%S.%f"]:
    print(fmt, "->", t.strftime(fmt))
print(dt.datetime.strptime("2019-03-04 05:06:07", "%Y-%m-%d %H:%M:%S"))
print(dt.datetime.strptime("04/Mar/2019:10:00", "%d/%b/%Y:%H:%M"), dt.datetime.strptime("20190102", "%Y%m%d").date())
print(format(t, "%Y"), "{:%H:%M}".format(t), f"{t:%d.%m}")
td = dt.timedelta(days=1, hours=2, minutes=3, seconds=4.5)
print(td, repr(td), td.total_seconds(), td.days, td.seconds, td.microseconds)
print(dt.timedelta(seconds=-1), dt.timedelta(minutes=90) * 2, dt.timedelta(hours=1) / dt.timedelta(minutes=15), dt.timedelta(0))
print(str(dt.timedelta(seconds=3725)), dt.timedelta(days=-1, seconds=5), abs(dt.timedelta(days=-2)), dt.timedelta(weeks=1) // 7)
try:
    dt.datetime.strptime("2019-13-01", "%Y-%m-%d")
except ValueError as e:
    print("ValueError:", e)
