# sys.exit("message"): the message goes to stderr and the exit code is 1.
import sys

print("working")
sys.exit("fatal: no data found")
