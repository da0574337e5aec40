# str layout methods: center, ljust, rjust, zfill, expandtabs, with fill chars and odd widths.
for s in ["a", "ab", "abc", "", "toolongstring"]:
    print("[%s] [%s] [%s] [%s]" % (s.center(8), s.center(8, "*"), s.ljust(6, "."), s.rjust(6, "-")))
print("ab".center(5, "x"), "abc".center(6, "x"), "a".center(2), "a".center(3))
print("42".zfill(5), "-42".zfill(5), "+3".zfill(4), "abc".zfill(5), "12345".zfill(3))
print(repr("a\tbc\tdef\t".expandtabs()), repr("a\tb".expandtabs(4)), repr("\t".expandtabs(0)))
print("=" * 20)
print("| %s | %s |" % ("name".ljust(10), "value".rjust(8)))
