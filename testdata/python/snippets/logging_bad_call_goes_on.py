# A training loop's classic slip: a log call with an argument and no %s
# for it, or a %d given a str. CPython's logging reports it on stderr
# ("--- Logging error ---", the traceback, the call's stack, the message)
# and the script goes on training. The report's file paths differ per
# installation, so it is captured and its fixed lines shown.
import io
import logging
import sys

logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(levelname)s %(message)s")
logger = logging.getLogger("train")
captured = io.StringIO()
real_stderr, sys.stderr = sys.stderr, captured
for epoch, loss in enumerate([0.9, 0.5]):
    logger.info("epoch", epoch)
    logger.info("loss: %d", "x")
    logger.info("epoch %d loss %.2f", epoch, loss)
sys.stderr = real_stderr
report = captured.getvalue().splitlines()
print(report.count("--- Logging error ---"), [l for l in report if l.startswith(("Message", "Arguments", "TypeError"))])
print("Call stack:" in report, any("logging_bad_call_goes_on.py" in l for l in report))
print("still training")
