# raise forms: raising a class (instantiated with no args), an instance, re-raising with a different traceback, raising non-exceptions (TypeError).
for thunk_name in ["class", "instance", "from_class", "non_exception"]:
    try:
        if thunk_name == "class":
            raise ValueError
        if thunk_name == "instance":
            raise ValueError("with message")
        if thunk_name == "from_class":
            raise RuntimeError("wrapped") from KeyError
        if thunk_name == "non_exception":
            raise "a string"
    except Exception as e:
        print(thunk_name, type(e).__name__, repr(e) if thunk_name != "non_exception" else "-", repr(e.__cause__))


def reraiser():
    try:
        1 / 0
    except ZeroDivisionError as e:
        raise e.with_traceback(None)


try:
    reraiser()
except ZeroDivisionError as e:
    print("with_traceback", e, e.__traceback__ is not None)
