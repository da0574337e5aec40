# Uncaught exception raised while handling another: "During handling of the above exception, another exception occurred".
try:
    {}["missing"]
except KeyError:
    print("handling")
    int("x")
