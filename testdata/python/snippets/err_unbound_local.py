# A training loop that never ran (an empty reader) leaves its loop
# variable unbound; the evaluation after it reads it anyway.
def train(batches):
    for batch_loss in batches:
        pass
    return batch_loss


def best(costs):
    def report():
        return best_cost
    if costs:
        best_cost = min(costs)
    return report()


def forget(x):
    del x
    del x


for f, arg in [(train, []), (best, []), (forget, 1), (train, [0.5])]:
    try:
        print(f(arg))
    except NameError as e:
        print(type(e).__name__, e)
train([])
