# time formatting with TZ=UTC: localtime/gmtime agree, ctime/asctime of fixed times, strftime directives, struct_time attributes, elapsed formatting.
import time

t = 1546398245
print(time.localtime(t)[:6] == time.gmtime(t)[:6], time.ctime(t), time.asctime(time.gmtime(0)))
lt = time.localtime(t)
print(lt.tm_year, lt.tm_mon, lt.tm_mday, lt.tm_hour, time.strftime("%Y%m%d-%H%M%S", lt))
print(time.strftime("%b %d, %Y %I:%M:%S %p", lt), time.strftime("%A %w %U %j", lt), time.mktime(lt) == t)
elapsed = 3725.5
print("%02d:%02d:%05.2f" % (elapsed // 3600, elapsed % 3600 // 60, elapsed % 60), time.strftime("%H:%M:%S", time.gmtime(elapsed)))
print(time.timezone, time.daylight, time.tzname[0])
