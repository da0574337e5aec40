# datetime timezones: timezone.utc, fixed offsets, astimezone between fixed zones, aware vs naive comparisons, utcoffset, tzname.
import datetime as dt

utc = dt.timezone.utc
cst = dt.timezone(dt.timedelta(hours=8), "CST")
t = dt.datetime(2019, 5, 1, 12, 0, tzinfo=utc)
print(t, t.astimezone(cst), t.astimezone(cst).tzname(), t.utcoffset(), cst.utcoffset(None))
print(t == t.astimezone(cst), dt.timezone(dt.timedelta(hours=-5, minutes=-30)), repr(utc))
print(t.isoformat(), dt.datetime(2019, 1, 1, tzinfo=cst).isoformat(), t.timestamp())
naive = dt.datetime(2019, 5, 1, 12)
try:
    naive < t
except TypeError as e:
    print("TypeError")
print(naive.tzinfo, t.tzinfo, t.replace(tzinfo=None) == naive, dt.datetime.fromtimestamp(1e9, utc))
