# warnings: warn() prints "file:line: Category: message" and the source line to stderr once per location; filters, catch_warnings record.
import warnings


def old_api():
    warnings.warn("old_api is deprecated, use new_api", DeprecationWarning, stacklevel=2)
    return 1


for _ in range(2):
    warnings.warn("this is a user warning")
old_api()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    warnings.warn("recorded", RuntimeWarning)
    old_api()
print([(w.category.__name__, str(w.message)) for w in caught])
warnings.filterwarnings("ignore", category=UserWarning)
warnings.warn("ignored")
with warnings.catch_warnings():
    warnings.simplefilter("error")
    try:
        warnings.warn("as error")
    except UserWarning as e:
        print("raised", e)
print("done")
