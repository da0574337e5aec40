# logging without basicConfig: the last-resort handler prints bare warnings to stderr; basicConfig default format.
import logging

logging.getLogger("x").info("dropped")
logging.getLogger("x").warning("last resort %d", 1)
logging.basicConfig()
logging.warning("default format")
logging.getLogger("child.logger").error("child error")
logging.basicConfig(level=logging.DEBUG)
logging.debug("second basicConfig is ignored, so this is dropped")
print("done")
