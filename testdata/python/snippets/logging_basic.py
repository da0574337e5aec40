# logging.basicConfig with a format (no time) and level; logger.info/warning/debug filtering; %-style arguments; output goes to stderr.
import logging

logging.basicConfig(level=logging.INFO, format="%(levelname)s:%(name)s:%(message)s")
logger = logging.getLogger("train")
logger.info("epoch %d loss %.4f", 1, 0.12345)
logger.debug("not shown")
logger.warning("lr is %s", 0.1)
logger.error("bad %r", "thing")
logging.info("root logger %s", "info")
logger.setLevel(logging.DEBUG)
logger.debug("now shown")
print("stdout line", logger.level, logger.getEffectiveLevel(), logging.getLogger().level)
print(logging.getLevelName(logging.WARNING), logging.getLevelName(15), logging.DEBUG, logging.CRITICAL)
