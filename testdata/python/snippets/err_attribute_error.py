# Uncaught AttributeError on an instance with a "Did you mean" suggestion.
class Trainer:
    def __init__(self):
        self.epochs = 3


t = Trainer()
print(t.epochs)
print(t.epoch)
