# logging Formatter with %(asctime)s on records of fixed creation time (TZ=UTC in the test), datefmt, msecs, and makeLogRecord.
import logging
import time

logging.Formatter.converter = time.gmtime
fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
rec = logging.makeLogRecord({"msg": "epoch %d done", "args": (3,), "levelname": "INFO", "name": "train", "created": 1536000000.25, "msecs": 250.0})
print(fmt.format(rec))
fmt2 = logging.Formatter("[%(asctime)s] %(message)s", datefmt="%Y/%m/%d %H:%M")
print(fmt2.format(rec), rec.getMessage())
fmt3 = logging.Formatter("{levelname}:{message}", style="{")
print(fmt3.format(rec))
print(logging.Formatter("%(asctime)s,%(msecs)03d").format(rec))
