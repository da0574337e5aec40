# calendar: isleap, leapdays, monthrange, weekday, month text calendar, day and month names.
import calendar

print(calendar.isleap(2020), calendar.isleap(1900), calendar.leapdays(2000, 2021), tuple(map(int, calendar.monthrange(2019, 2))), calendar.weekday(2018, 9, 1))
print(calendar.month(2019, 1))
print(list(calendar.day_name)[:3], list(calendar.month_abbr)[1:4], calendar.monthcalendar(2019, 2)[0])
print(calendar.timegm((2019, 1, 2, 3, 4, 5)))
