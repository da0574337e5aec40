# Parsing training logs with re: extracting metrics per line, named groups to dicts, float conversion, findall over multiline text.
import re

log = """2019-01-02 10:00:01 INFO pass=0 batch=100 cost=2.3025 acc=0.1100
2019-01-02 10:00:05 INFO pass=0 batch=200 cost=1.0471 acc=0.6523
2019-01-02 10:00:09 WARN nan detected at batch=250
2019-01-02 10:00:12 INFO pass=1 batch=100 cost=0.3312 acc=0.9012"""
pat = re.compile(r"pass=(?P<pass>\d+) batch=(?P<batch>\d+) cost=(?P<cost>[\d.]+) acc=(?P<acc>[\d.]+)")
rows = [m.groupdict() for m in pat.finditer(log)]
print(rows)
print([(int(r["pass"]), float(r["cost"])) for r in rows])
print(re.findall(r"^\S+ \S+ (\w+)", log, re.M), re.findall(r"batch=(\d+)", log))
warn = re.search(r"WARN (.*)$", log, re.M)
print(warn.group(1), warn.span(1))
print(re.sub(r"(\d{4})-(\d{2})-(\d{2})", r"\3/\2/\1", log.splitlines()[0]))
print(max(rows, key=lambda r: float(r["acc"]))["batch"], len(re.split(r"\n", log)))
