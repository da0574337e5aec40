# Uncaught KeyError: the message is the key's repr.
config = {"lr": 0.1}
print("lr", config["lr"])
print(config["batch_size"])
