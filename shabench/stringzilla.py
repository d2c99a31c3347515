"""StringZilla as a Python peer where it is installed (the bench extra): a C extension with SHA-256,
HMAC-SHA256 and SHA-256 lanes, called from Python as libsha is, on the same messages."""

import importlib.util

from .rows import Benchmark, python_loop


def available():
    return importlib.util.find_spec("stringzilla") is not None


def version():
    import stringzilla

    return stringzilla.__version__


def _label(call, how):
    return f"stringzilla.{call} (StringZilla {version()}, {how})"


def _sz():
    import stringzilla

    return stringzilla


def oneshot(name, size):
    """sz.sha256(m): one call, one digest."""
    return Benchmark(name, _label("sha256(m)", "Python loop"), size, python_loop(lambda: _sz().sha256, size), True)


def stream(name, size):
    """h = sz.Sha256(); h.update(m); h.digest(): the three calls of the hashlib form."""
    def make_call():
        new = _sz().Sha256

        def call(message):
            h = new()
            h.update(message)
            return h.digest()
        return call

    return Benchmark(name, _label("Sha256, update, digest", "Python loop"), size, python_loop(make_call, size), True)


def hmac(name, size, key):
    def make_call():
        mac = _sz().hmac_sha256
        return lambda message: mac(key, message)

    return Benchmark(name, _label("hmac_sha256", "Python loop"), size, python_loop(make_call, size), True)


def many(name, unit, messages_of, runner):
    """sz.Sha256s(n).update(messages).digest(): a batch through its lanes, in one Python call."""
    def call(messages):
        lanes = _sz().Sha256s(len(messages))
        lanes.update(messages)
        return lanes.digest()

    return Benchmark(name, _label("Sha256s(n).update(list).digest()", "one Python call"), unit,
                     runner(call, messages_of), True)
