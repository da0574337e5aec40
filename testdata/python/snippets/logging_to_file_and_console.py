# The common "log to file and console" setup: basicConfig with handlers=[FileHandler, StreamHandler(stdout)], then reading the file back.
import logging
import os
import sys
import tempfile

d = tempfile.mkdtemp()
log_path = os.path.join(d, "train.log")
logging.basicConfig(level=logging.INFO, format="%(levelname)s - %(message)s",
                    handlers=[logging.FileHandler(log_path), logging.StreamHandler(sys.stdout)])
logger = logging.getLogger(__name__)
for epoch in range(2):
    logger.info("epoch %d: loss=%.4f", epoch, 1.0 / (epoch + 1))
logger.warning("done")
for h in logging.getLogger().handlers:
    h.flush()
with open(log_path) as f:
    print(f.read().splitlines())
logging.shutdown()
os.remove(log_path)
os.rmdir(d)
