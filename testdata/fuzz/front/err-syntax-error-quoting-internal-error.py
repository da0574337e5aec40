# Found by the front campaign (session 5, third run): a "crash" of the
# harness, not of fluidc. The syntax error quotes the unexpected token, a
# string holding the words "internal error", and the harness took any
# message containing them for an internal error. It now looks for messages
# that start with them, as fluidc's own internal errors do.
x = 1 """internal error"""
