# Custom exception classes: hierarchy, extra attributes, __str__, args, catching by base class.
class TrainError(Exception):
    """Base of the trainer's errors."""


class NaNLoss(TrainError):
    def __init__(self, step, value):
        super().__init__(step, value)
        self.step = step
        self.value = value

    def __str__(self):
        return "loss is %s at step %d" % (self.value, self.step)


class DataError(TrainError, ValueError):
    pass


for exc in [NaNLoss(7, float("nan")), DataError("bad row", 3), TrainError(), KeyError("k")]:
    try:
        raise exc
    except ValueError as e:
        print("ValueError branch:", type(e).__name__, e.args)
    except TrainError as e:
        print("TrainError branch:", type(e).__name__, str(e), e.args)
    except Exception as e:
        print("Exception branch:", repr(e), str(e))

e = NaNLoss(1, 2.5)
print(e.step, e.value, repr(e), isinstance(e, Exception), TrainError.__doc__)
print(DataError.__mro__[1].__name__, [c.__name__ for c in DataError.__mro__])
