# Uncaught exception raised inside the standard library (json): frames of the stdlib module appear in the traceback.
import json

json.loads('{"a": 1,}')
