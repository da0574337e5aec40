# More str methods: format of numbers in str, str.split on multi-char sep, rsplit keepends, str slicing of unicode, str.index in loops, casefold comparisons.
s = "a::b::c::d"
print(s.split("::"), s.split("::", 2), s.rsplit("::", 2), s.find("::", 2), s.count("::"))
words = ["Apple", "apple", "APPLE", "Straße"]
print([w.casefold() == "apple" for w in words], sorted(set(w.lower() for w in words)))
u = "naïve café"
print(u[2], u[::-1], u.upper(), u.title(), len(u), u.find("é"), u.encode()[:4], "ï" in u)
path = "data/train/part-00001.txt"
print(path.rsplit("/", 1)[-1], path.split("/")[1], path.endswith((".txt", ".csv")), path[path.rfind("-") + 1:path.rfind(".")])
print("%s" % "x".join(["1", "2", "3"]), "abc".center(9, "-"), "x".ljust(3, "0") + "|", "ABC".lower().capitalize())
line = "label\t0.5 0.25 0.125\n"
label, feats = line.rstrip("\n").split("\t")
print(label, [float(v) for v in feats.split()], sum(map(float, feats.split())))
print("Hello World".swapcase(), "hello"[1:-1], "-".join("hello"), "tEsT".islower(), "123".zfill(6), "a,b".partition(","))
