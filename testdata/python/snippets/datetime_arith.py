# datetime arithmetic for schedules: adding months by hand, weeks, day differences, sorting dates, date ranges, isoweekday names.
import datetime as dt

start = dt.date(2018, 12, 30)
print([str(start + dt.timedelta(days=i)) for i in range(0, 5, 2)], (dt.date(2019, 12, 25) - start).days)
days = [start + dt.timedelta(weeks=w) for w in range(3)]
print([d.strftime("%a %d %b") for d in days], sorted(days, reverse=True)[0])


def add_month(d):
    y, m = divmod(d.month, 12)
    return d.replace(year=d.year + y, month=m + 1, day=min(d.day, 28))


print(add_month(dt.date(2019, 1, 31)), add_month(dt.date(2019, 12, 15)))
t0 = dt.datetime(2019, 1, 1, 23, 59, 59)
t1 = t0 + dt.timedelta(seconds=2)
print(t1, (t1 - t0).total_seconds(), t1.date() > t0.date(), t0.replace(hour=0, minute=0, second=0))
print(dt.date(2019, 1, 7).isocalendar()[1], dt.date(2019, 3, 1) - dt.timedelta(days=1), dt.datetime.max.year)
