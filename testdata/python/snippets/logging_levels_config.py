# logging configuration: dictConfig with a stdout handler, level names, disabling loggers, NullHandler, logger.isEnabledFor, %-style extra fields.
import logging
import logging.config

logging.config.dictConfig({
    "version": 1,
    "formatters": {"plain": {"format": "%(name)s|%(levelname)s|%(message)s|%(user)s"}},
    "handlers": {"out": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "plain", "level": "DEBUG"}},
    "loggers": {"svc": {"handlers": ["out"], "level": "INFO", "propagate": False}},
})
log = logging.getLogger("svc")
log.info("started", extra={"user": "alice"})
log.debug("hidden", extra={"user": "bob"})
print(log.isEnabledFor(logging.INFO), log.isEnabledFor(logging.DEBUG), logging.getLevelName("WARNING"), logging.getLevelName(logging.ERROR))
quiet = logging.getLogger("quiet")
quiet.addHandler(logging.NullHandler())
quiet.propagate = False
quiet.error("nobody hears this")
logging.disable(logging.CRITICAL)
log.critical("disabled", extra={"user": "x"})
logging.disable(logging.NOTSET)
log.warning("enabled again", extra={"user": "carol"})
