# datetime: date/datetime/time construction, arithmetic with timedelta, comparisons, weekday, isoformat, replace, attributes.
import datetime as dt

d = dt.date(2018, 9, 1)
print(d, repr(d), d.year, d.month, d.day, d.weekday(), d.isoweekday(), d.isoformat(), d.isocalendar()[:2])
print(d + dt.timedelta(days=30), d - dt.date(2018, 1, 1), (dt.date(2019, 3, 1) - dt.date(2019, 2, 1)).days)
t = dt.datetime(2019, 1, 2, 3, 4, 5, 678900)
print(t, repr(t), t.isoformat(), t.isoformat(sep=" ", timespec="seconds"), t.date(), t.time())
print(t + dt.timedelta(hours=25, minutes=70), t - dt.timedelta(microseconds=900), t.replace(year=2020, day=29))
print(t < dt.datetime(2019, 1, 3), max(d, dt.date(2018, 12, 31)), dt.date(2020, 2, 29).toordinal(), dt.date.fromordinal(737000))
print(dt.time(12, 30), dt.time(1, 2, 3, 4), dt.datetime.combine(d, dt.time(8)), dt.date.fromisoformat("2021-05-06"))
print(dt.datetime.fromisoformat("2019-01-02T03:04:05"), dt.datetime(2019, 1, 1).timestamp() if False else "skip", dt.date.min, dt.date.max)
print(dt.datetime.fromtimestamp(0, dt.timezone.utc), dt.datetime.fromtimestamp(86400 * 365, dt.timezone.utc))
try:
    dt.date(2019, 2, 29)
except ValueError as e:
    print("ValueError")
