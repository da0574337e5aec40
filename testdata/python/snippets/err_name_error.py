# Uncaught NameError with CPython's "Did you mean" suggestion for a misspelt local name.
learning_rate = 0.01
print(learning_rat)
