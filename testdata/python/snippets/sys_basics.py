# sys: argv as given, path[0] is the script's directory, maxsize, byteorder, platform, modules, version_info major, float_info, exit via SystemExit caught.
import os
import sys

print(sys.argv, len(sys.argv))
print(sys.path[0] == os.path.dirname(os.path.abspath(__file__)))
print(sys.maxsize, sys.byteorder, sys.platform, sys.version_info[0], sys.version_info >= (3, 6), sys.version_info.major)
print("os" in sys.modules, "sys" in sys.modules, __name__, sys.modules["__main__"].__name__)
print(sys.float_info.max, sys.float_info.epsilon, sys.float_info.dig, sys.int_info.bits_per_digit in (15, 30))
print(isinstance(sys.stdout.encoding, str), sys.getdefaultencoding(), sys.getfilesystemencoding())
try:
    sys.exit(3)
except SystemExit as e:
    print("SystemExit", e.code)
try:
    sys.exit("message")
except SystemExit as e:
    print("SystemExit", e.code)
try:
    sys.exit()
except SystemExit as e:
    print("SystemExit", e.code)
print(callable(sys.exc_info), sys.executable != "", type(sys.flags.optimize).__name__)
