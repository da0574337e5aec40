# logging handlers: StreamHandler to stdout with a Formatter, FileHandler into a temp dir, logger hierarchy and propagation, filters.
import logging
import os
import sys
import tempfile

log = logging.getLogger("app")
log.setLevel(logging.DEBUG)
h = logging.StreamHandler(sys.stdout)
h.setFormatter(logging.Formatter("[%(levelname)-7s] %(name)s %(funcName)s:%(lineno)d %(message)s"))
log.addHandler(h)
log.info("hello %s", "world")
child = logging.getLogger("app.model")
child.debug("from child")
print(child.parent is log, child.name, log.handlers == [h])
child.propagate = False
child.warning("not propagated")


class OnlyEven(logging.Filter):
    def filter(self, record):
        return record.args[0] % 2 == 0


h.addFilter(OnlyEven())
for i in range(4):
    log.info("number %d", i)
h.removeFilter(h.filters[0])
d = tempfile.mkdtemp()
path = os.path.join(d, "train.log")
fh = logging.FileHandler(path)
fh.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
log.addHandler(fh)
log.warning("to both")
log.removeHandler(fh)
fh.close()
with open(path) as f:
    print(repr(f.read()))
os.remove(path)
os.rmdir(d)
log.log(logging.ERROR, "via log()")
log.critical("critical %s %s", 1, [2])
