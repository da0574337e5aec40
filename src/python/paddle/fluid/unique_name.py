"""paddle.fluid.unique_name: `key_0`, `key_1`, ... one counter per key."""
import contextlib

import _fluidc


# The counters are native (`_fluidc.UniqueNameGenerator(prefix=None)`):
# every layer names its outputs through them. `generator(key)` gives
# `prefix + key_N`, N counting from 0 per key; `.ids` and `.prefix` are 1.x's.
UniqueNameGenerator = _fluidc.UniqueNameGenerator


generator = UniqueNameGenerator()


def generate(key):
    """Paddle's `unique_name.generate(key)`."""
    return generator(key)


def generate_with_ignorable_key(key):
    return generator(key)


def switch(new_generator=None):
    global generator
    old = generator
    generator = new_generator if new_generator is not None else UniqueNameGenerator()
    return old


@contextlib.contextmanager
def guard(new_generator=None):
    """Names generated inside start their counters afresh (or from
    `new_generator`, a generator or a prefix string)."""
    if isinstance(new_generator, str):
        new_generator = UniqueNameGenerator(new_generator)
    old = switch(new_generator)
    try:
        yield
    finally:
        switch(old)
