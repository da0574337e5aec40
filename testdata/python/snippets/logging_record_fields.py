# logging record fields in formats: %(filename)s, %(module)s, %(funcName)s, %(lineno)d, %(levelno)s, %(pathname)s (normalized by the test), %(process)d type-free.
import logging
import sys

h = logging.StreamHandler(sys.stdout)
h.setFormatter(logging.Formatter("%(filename)s|%(module)s|%(funcName)s|%(lineno)d|%(levelno)s|%(pathname)s|%(message)s"))
log = logging.getLogger("fields")
log.addHandler(h)
log.setLevel(logging.DEBUG)


def train_step():
    log.debug("inside %s", "train_step")


train_step()
log.info("at module level")


class Model:
    def fit(self):
        log.warning("in a method")


Model().fit()
