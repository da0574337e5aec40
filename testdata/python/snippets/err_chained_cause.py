# Uncaught exception raised "from" another: both tracebacks and "The above exception was the direct cause".
def parse(text):
    try:
        return int(text)
    except ValueError as e:
        raise RuntimeError("bad config value %r" % text) from e


parse("ten")
