# datetime.now()/today() uses: types and ordering, elapsed timedelta between two now() calls, formatting a now() value by shape only.
import datetime as dt
import re

a = dt.datetime.now()
b = dt.datetime.now()
print(type(a).__name__, b >= a, type(b - a).__name__, (b - a).total_seconds() < 60, a.tzinfo)
today = dt.date.today()
print(type(today).__name__, today <= dt.date.today(), today.year >= 2019)
stamp = a.strftime("%Y%m%d_%H%M%S")
print(bool(re.fullmatch(r"\d{8}_\d{6}", stamp)), len(a.isoformat()) >= 19)
aware = dt.datetime.now(dt.timezone.utc)
print(aware.tzinfo, aware.utcoffset(), aware >= dt.datetime(2019, 1, 1, tzinfo=dt.timezone.utc))
