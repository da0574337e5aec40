# Case and classification methods: upper/lower/title/capitalize/swapcase/casefold, isdigit/isalpha/isspace/etc.
words = ["hello world", "HELLO", "they're bill's", "123abc", "", " ", "Ab1"]
for w in words:
    print(repr(w), w.upper(), w.lower(), w.title(), w.capitalize(), w.swapcase(), w.casefold())
for w in ["123", "12.3", "abc", "abc123", " \t\n", "", "Title Case", "UPPER", "lower", "²", "x_1"]:
    print(repr(w), w.isdigit(), w.isdecimal(), w.isnumeric(), w.isalpha(), w.isalnum(), w.isspace(),
          w.istitle(), w.isupper(), w.islower(), w.isidentifier(), w.isprintable(), w.isascii())
