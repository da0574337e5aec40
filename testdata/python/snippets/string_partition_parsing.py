# Parsing with partition/rpartition/split: key=value options, URLs-like strings, file names with several dots, headers with colons.
opts = "lr=0.01;epochs=10;name=model=v2;flag"
parsed = {}
for part in opts.split(";"):
    key, sep, value = part.partition("=")
    parsed[key] = value if sep else True
print(parsed)
print("hdfs://host:9000/data/train".partition("://"), "a.b.c.tar.gz".rpartition("."), "no-dot".rpartition("."))
header = "Content-Type: text/plain; charset=utf-8"
name, _, rest = header.partition(":")
print(name, rest.strip().split(";")[0], dict(p.strip().split("=") for p in rest.split(";")[1:]))
print("k:v:w".split(":", 1), "k:v:w".rsplit(":", 1), " padded ".strip().partition(" "))
