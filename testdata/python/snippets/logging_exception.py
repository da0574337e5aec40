# logger.exception inside except prints the message and the traceback (to a stdout handler here); exc_info=True; stack levels.
import logging
import sys

logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(levelname)s %(message)s")
log = logging.getLogger(__name__)


def divide(a, b):
    return a / b


try:
    divide(1, 0)
except ZeroDivisionError:
    log.exception("division failed for %d", 1)
try:
    {}["k"]
except KeyError:
    log.error("lookup failed", exc_info=True)
log.info("after")
print(log.name)
