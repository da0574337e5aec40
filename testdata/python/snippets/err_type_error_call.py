# Uncaught TypeError from calling a function with a missing argument.
def train(model, epochs):
    return model, epochs


print(train("lenet", 1))
train("lenet")
