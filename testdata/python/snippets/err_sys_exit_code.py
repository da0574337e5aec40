# sys.exit(3): no traceback, exit code 3, stdout flushed.
import sys

print("before exit")
sys.exit(3)
print("not printed")
