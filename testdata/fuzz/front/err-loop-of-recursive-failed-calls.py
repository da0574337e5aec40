# Found by the front campaign (timeout): pairs() loops 11 times over a call
# of an undefined name whose argument reads pairs() again, to the call-depth
# limit of 200. The first read of pairs() reports its errors; the second
# (the for loop) meets only repeats, which were recorded once and so were
# invisible to the loops: 11^200 steps. A loop now stops after an iteration
# that reported an error, repeats included; this fails at once.
import paddle


def numbers():
    for i in range(11):
        yield i


def pairs():
    for i in range(11):
        undefined.attr(list(paddle.reader.compose(numbers, pairs)()))


print(list(paddle.reader.map_readers(lambda a, b: a + b[0], numbers, pairs)()))
for batch in paddle.batch(paddle.reader.shuffle(pairs, buf_size=5), batch_size=4)():
    print(batch)
