# string.Formatter subclass overriding get_value and format_field, vformat with kwargs, and str.translate with string.punctuation removal.
import string


class Defaulting(string.Formatter):
    def get_value(self, key, args, kwargs):
        if isinstance(key, str):
            return kwargs.get(key, "<%s>" % key)
        return super().get_value(key, args, kwargs)

    def format_field(self, value, spec):
        if spec == "upper":
            return str(value).upper()
        return super().format_field(value, spec)


f = Defaulting()
print(f.format("{name:upper} {0} {missing}", 7, name="fluid"), f.vformat("{a}-{b}", (), {"a": 1}))
clean = "Hello, World! (test) #1".translate(str.maketrans("", "", string.punctuation))
print(clean, clean.split(), string.ascii_lowercase.index("k"), string.capwords("the FLUID api"))
