# Uncaught ValueError from int() on bad input parsed from a data line; the message shows the literal.
lines = ["1,0.5", "2,0.25", "three,0.1"]
for line in lines:
    idx, value = line.split(",")
    print(int(idx), float(value))
