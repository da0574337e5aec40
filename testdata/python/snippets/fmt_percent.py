# %-formatting: %s %r %d %i %f %.4f %e %g %x %o %c %%, widths, flags, dict-based and tuple args.
loss, acc, epoch = 0.123456789, 0.98765, 3
print("epoch %d, loss %.4f, acc %.2f%%" % (epoch, loss, acc * 100))
print("Pass %d, Batch %d, Cost %f, Acc %s" % (1, 200, loss, [acc]))
print("%5d|%-5d|%05d|%+d|% d" % (42, 42, 42, 42, 42))
print("%.3e|%E|%g|%G|%10.4g" % (12345.678, 0.000123, 0.0000123, 1e20, 3.14159))
print("%x|%X|%#x|%o|%#o|%c|%c" % (255, 255, 255, 8, 8, 65, "z"))
print("%(name)s has %(n)03d items" % {"name": "box", "n": 7})
print("%s %r %a" % ("text", "text", "tëxt"))
print("%*d|%-*.*f|" % (6, 7, 8, 2, 3.14159))
print("%s" % (1, ), "%s" % [1, 2], "%d%%" % 50, "%.0f %.1f" % (0.5, 0.25))
try:
    "%d" % "x"
except TypeError as e:
    print("TypeError")
try:
    "%s %s" % (1,)
except TypeError as e:
    print("TypeError:", e)
print("%i %u" % (3.9, 4), "%s" % None, "%5s|%-5s|" % ("ab", "cd"), "%.2s" % "abcdef")
print(b"%s-%d-%x" % (b"raw", 3, 255))
