# A script with a syntax error (an unexpected indent): nothing runs; the file, line, source line and message on stderr, exit code 1.
print("never printed")
x = 5
  y = 6
