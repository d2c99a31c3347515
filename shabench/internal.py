"""libsha's internal benchmark loops (libsha/src/bench/bench.h): their signatures and operation codes.

Not part of libsha's API: the library exports them under the libsha_internal_ prefix for shabench
alone, so they are declared here, on the loaded library, the first time shabench asks for it.
"""

from ctypes import CDLL, c_char_p, c_int, c_size_t, c_uint, c_uint64, c_void_p

from libsha import _native
from libsha import _signatures

# name: (restype, argtypes), as in libsha/src/bench/bench.h
SIGNATURES = {
    "libsha_internal_bench": (c_int, [c_char_p, c_int, c_void_p, c_size_t, c_uint64]),
    "libsha_internal_bench_many": (c_int, [c_char_p, c_void_p, c_void_p, c_void_p, c_size_t, c_uint, c_int, c_char_p,
                                           c_size_t, c_uint64]),
    "libsha_internal_bench_streams": (c_int, [c_char_p, c_int, c_void_p, c_size_t, c_size_t, c_size_t, c_uint64]),
    "libsha_internal_bench_peer": (c_int, [c_void_p, c_void_p, c_size_t, c_uint64]),
    "libsha_internal_bench_peer_many": (c_int, [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_size_t,
                                                c_uint64]),
    "libsha_internal_bench_pbkdf2": (c_int, [c_char_p, c_void_p, c_size_t, c_size_t, c_int, c_uint64, c_uint64]),
    "libsha_internal_bench_clock": (c_int, [c_uint64]),
    # tests only: the wide window of a row of two engines (tests/rows/emulated_rows_check.py)
    "libsha_internal_set_wide_window": (None, [c_uint, c_uint]),
}

# libsha_internal_bench's operations (LIBSHA_INTERNAL_BENCH_*).
BENCH_HASH = 0
BENCH_D64 = 1
BENCH_HASH_DIRTY_UPPER = 2
BENCH_STREAM = 3
BENCH_HMAC = 4
BENCH_MERKLE = 5
# libsha_internal_bench_many's starts (LIBSHA_INTERNAL_FROM_NOTHING, _AFTER_PREFIX, _UNDER_KEY).
FROM_NOTHING = 0
AFTER_PREFIX = 1
UNDER_KEY = 2
# libsha_internal_bench_streams' most streams.
BENCH_MAX_STREAMS = 64
# libsha_internal_bench_pbkdf2's most keys.
BENCH_MAX_KEYS = 64

_declared = None


def lib() -> CDLL:
    """libsha's loaded library, with the internal loops declared on it."""
    global _declared
    loaded = _native.lib()
    if _declared is not loaded:
        _signatures.declare(loaded, SIGNATURES)  # AttributeError: a libsha without them (not this version)
        _declared = loaded
    return loaded
