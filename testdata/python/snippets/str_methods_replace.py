# str.replace with count, str.count, find/rfind/index/rindex, startswith/endswith with tuples and ranges.
s = "the cat sat on the mat with the hat"
print(s.replace("the", "a"), "|", s.replace("the", "a", 2), "|", s.replace("at", ""), "|", s.replace("", "-", 3))
print(s.count("at"), s.count("the", 5), s.count(""), "aaaa".count("aa"))
print(s.find("at"), s.rfind("at"), s.find("zz"), s.find("at", 10, 20), s.index("sat"), s.rindex("the"))
try:
    s.index("dog")
except ValueError as e:
    print("ValueError:", e)
print(s.startswith("the"), s.startswith(("a", "t")), s.endswith("hat"), s.endswith("cat", 0, 7), s.startswith("cat", 4))
print("aaa".replace("a", "b", 0), "aaa".replace("a", "b", -1), "banana".replace("ana", "X"))
print("x".join("abc"), "".join(reversed("stressed")), s.removeprefix("the "), s.removesuffix(" hat"))
