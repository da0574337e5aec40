# split/rsplit with maxsplit, split on whitespace runs, splitlines with keepends and various line breaks, partition.
line = "  a  b\tc\n d  "
print(line.split(), line.split(" "), line.split(None, 1), line.rsplit(None, 1))
print("a,b,,c,".split(","), "a,b,,c".split(",", 2), "a,b,,c".rsplit(",", 1), "".split(","), "".split())
text = "one\ntwo\r\nthree\rfour\n\nsix\x0bseven\x0ceight\x1cnine\u2028ten"
print(text.splitlines())
print(text.splitlines(True))
print("trailing\n".splitlines(), "trailing\n".split("\n"), "".splitlines())
print("key=value=x".partition("="), "key=value=x".rpartition("="), "novalue".partition("="))
print("/usr/local/lib".split("/"), "a b c".split(" ", maxsplit=1))
