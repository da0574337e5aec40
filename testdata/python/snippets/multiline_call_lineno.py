# A 2019 training script's log lines ("%(lineno)d" in the format) and
# tracebacks carry the line where a call spanning several lines starts
# (a method call's: where its name is), as CPython 3.11 records it.
import logging
import sys
import traceback

logging.basicConfig(level=logging.INFO, format="[%(lineno)4d] %(message)s", stream=sys.stdout)
logger = logging.getLogger(__name__)
logger.info("one line")
logger.info("epoch {} loss {:.3f}".format(
    3, 0.25))
logger.info("a" +
            "b" +
            "c")
logger.info("x"
            .format())
print(sys._getframe().f_lineno,
      sys._getframe().f_lineno)


def fail(*values):
    raise ValueError("bad %s" % (values,))


try:
    fail(1,
         2)
except ValueError:
    print([f.lineno for f in traceback.extract_tb(sys.exc_info()[2])])
try:
    result = dict(a=1,
                  b=fail(
                      3))
except ValueError:
    print([f.lineno for f in traceback.extract_tb(sys.exc_info()[2])])
