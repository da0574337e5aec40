# Bound and unbound methods: __self__, __func__, equality of bound methods, methods stored in containers, getattr-based dispatch.
class Handler:
    def __init__(self, name):
        self.name = name

    def on_start(self):
        return self.name + " started"

    def on_stop(self):
        return self.name + " stopped"


h = Handler("h1")
m = h.on_start
print(m(), m.__self__ is h, m.__func__ is Handler.on_start, m.__name__, Handler.on_start(h))
print(h.on_start == h.on_start, h.on_start == Handler("h2").on_start)
for event in ["start", "stop", "pause"]:
    fn = getattr(h, "on_" + event, None)
    print(event, fn() if fn else "no handler")
callbacks = [h.on_stop, Handler("h3").on_start]
print([cb() for cb in callbacks])
h.on_start = lambda: "instance override"
print(h.on_start(), Handler.on_start(h))
