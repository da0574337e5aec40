# Iterator classes used by data loaders: a resettable batch iterator with __len__, __iter__ returning a fresh iterator, and StopIteration handling.
class BatchLoader:
    def __init__(self, data, batch_size, drop_last=False):
        self.data, self.bs, self.drop_last = data, batch_size, drop_last

    def __len__(self):
        n = len(self.data) // self.bs
        return n if self.drop_last or len(self.data) % self.bs == 0 else n + 1

    def __iter__(self):
        return _BatchIter(self)


class _BatchIter:
    def __init__(self, loader):
        self.loader, self.pos = loader, 0

    def __iter__(self):
        return self

    def __next__(self):
        l = self.loader
        if self.pos >= len(l.data) or (l.drop_last and self.pos + l.bs > len(l.data)):
            raise StopIteration
        batch = l.data[self.pos:self.pos + l.bs]
        self.pos += l.bs
        return batch


loader = BatchLoader(list(range(10)), 4)
print(len(loader), list(loader), list(loader))
strict = BatchLoader(list(range(10)), 4, drop_last=True)
print(len(strict), [sum(b) for b in strict])
it = iter(loader)
print(next(it), next(it), next(it), next(it, None))
