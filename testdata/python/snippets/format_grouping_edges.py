# Metrics printed with thousands separators as training logs did, and a
# few edge values of everyday calls (each one once made the VM panic or
# print otherwise than CPython).
import random

acc, samples, lr = 0.98765, 1234567, 0.000125
print("acc {:,.2%} | samples {:,} | lr {:,.3e} | steps {:_}".format(acc, samples, lr, 250000))
print(format(12, ",g"), format(1234567.25, ",g"), "{:_e}".format(1.5), "{:,}".format(1e22), "{:,}".format(123456.789))
print("{:10,}|{:*>12,}|{:<12,}|{:^13_}|{:010,}|{:012,.2f}|{:+012,}|{:=12,}|".format(
    12345, 1234567, 9876543, 1234567, 12345, 1234.5, 123456, -12345))
print("{:>20,}|{:020,}|{:_x}|{:#_b}".format(3.14159e10, 2.5e8, 0xABCDEF12, 37))
print(repr("词语\t频次\t备注".expandtabs(0)), repr("a\tb".expandtabs(-1)), repr("ab\tc\n\td".expandtabs(4)))
random.seed(1)
print(random.getrandbits(0), random.randbytes(0), random.getrandbits(5))
try:
    huge = [0] * 2 ** 62
except MemoryError as e:
    print("MemoryError", repr(str(e)))
