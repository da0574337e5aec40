# A generator as a state machine: parsing a stream of tokens into records, with pushback via send and a final flush on close.
def parser():
    record = {}
    try:
        while True:
            token = yield
            if token == ";":
                print("record", dict(sorted(record.items())))
                record = {}
            else:
                key, _, value = token.partition("=")
                record[key] = int(value) if value.isdigit() else value
    except GeneratorExit:
        if record:
            print("flushed", record)


p = parser()
next(p)
for tok in "a=1 b=x ; c=3 ; d=4".split():
    p.send(tok)
p.close()
