# Logger hierarchy with basicConfig on stdout: module loggers via getLogger(__name__), child levels, propagation to the root handler.
import logging
import sys

logging.basicConfig(stream=sys.stdout, level=logging.WARNING, format="%(name)s %(levelname)s %(message)s")
root = logging.getLogger()
a = logging.getLogger("pkg")
b = logging.getLogger("pkg.sub")
a.setLevel(logging.INFO)
b.info("child inherits pkg's INFO level")
b.debug("not shown")
logging.getLogger("other").info("root's WARNING hides this")
logging.getLogger("other").warning("shown")
print(b.getEffectiveLevel(), b.parent.name, root.name, logging.getLogger("pkg") is a, len(root.handlers))
logging.getLogger(__name__).error("from %s", __name__)
