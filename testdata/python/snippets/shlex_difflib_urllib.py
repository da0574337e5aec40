# shlex.split/quote/join, difflib (unified_diff, SequenceMatcher ratio, get_close_matches), urllib.parse (urlparse, urlencode, quote).
import difflib
import shlex
from urllib import parse

print(shlex.split('train.py --name "my model" --lr=0.1 \'single q\''), shlex.quote("a b"), shlex.quote("safe"), shlex.join(["a", "b c"]))
a = ["line1\n", "line2\n", "line3\n"]
b = ["line1\n", "line2 changed\n", "line3\n", "line4\n"]
print("".join(difflib.unified_diff(a, b, "old.txt", "new.txt")))
print(round(difflib.SequenceMatcher(None, "abcd", "bcde").ratio(), 4), difflib.get_close_matches("appel", ["ape", "apple", "peach"]))
u = parse.urlparse("https://user@example.com:8080/path/to?q=1&r=two#frag")
print(u.scheme, u.netloc, u.hostname, u.port, u.path, u.query, u.fragment, parse.parse_qs(u.query))
print(parse.urlencode({"q": "a b", "n": 1}), parse.quote("a b/c"), parse.quote_plus("a b"), parse.unquote("%7E%20x"), parse.urljoin("http://a/b/c", "../d"))
