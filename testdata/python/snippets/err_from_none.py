# raise ... from None suppresses the context in the printed traceback.
def lookup(key):
    try:
        return {"a": 1}[key]
    except KeyError:
        raise ValueError("unknown key " + key) from None


lookup("b")
