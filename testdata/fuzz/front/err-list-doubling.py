# Issue 12 item 1: a list doubled forty times is refused by the size
# limit (it used to abort on allocation).
x = [0]
for i in range(40):
    x = x + x
