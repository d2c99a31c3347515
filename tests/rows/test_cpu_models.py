"""The CPU model table, entry by entry, on synthetic CPUID readings: what libsha decides on CPUs this
machine is not (libsha.dispatch.decide_x86, the same pure decision detection runs on this CPU).

This module holds the synthetic CPUID fixtures: the one place in tests/ that names vendors'
families and models. Each modeled CPU pins the table's entry and advice, and with SHA-NI and
AVX-512 present or not, the row the automatic choice takes: a change to the table
(libsha/src/dispatch/cpu_models.c) is a deliberate change here.
"""

import pytest

import libsha
from libsha.dispatch import decide_x86, implementation_for
from support.rows import AVX2_1WAY, AVX512, SHANI, SHANI_4WAY, SHANI_AVX512

pytestmark = pytest.mark.core

# CPUID bits and XCR0 states as Intel's SDM (vol. 2A, CPUID) gives them: written here, not read from
# the library, so that a wrong bit in libsha's feature table fails these cases.
SSSE3, SSE41, OSXSAVE, AVX = 1 << 9, 1 << 19, 1 << 27, 1 << 28  # leaf 1 ECX
BMI1, AVX2, BMI2, AVX512F, SHA, AVX512BW, AVX512VL = 1 << 3, 1 << 5, 1 << 8, 1 << 16, 1 << 29, 1 << 30, 1 << 31  # leaf 7 EBX
YMM_STATE, ZMM_STATE = 0x7, 0xE7  # x87, XMM, YMM; and opmask, ZMM0-15's upper halves, ZMM16-31


def signature(family, model, stepping=1):
    """CPUID leaf 1 EAX for a display family and model: family 0Fh and above put the rest in the
    extended family; families 06h and 0Fh and above put the model's high nibble in the extended model."""
    base_family, extended_family = (family, 0) if family < 0xF else (0xF, family - 0xF)
    extended_model = model >> 4 if family == 0x6 or family >= 0xF else 0
    assert extended_model or model < 0x10, "only families 06h and 0Fh+ have extended models"
    return stepping | (model & 0xF) << 4 | base_family << 8 | extended_model << 16 | extended_family << 20


def readings(vendor, family, model, sha, avx512):
    """decide_x86's arguments for an AVX2 + BMI2 CPU of this vendor, family and model, with SHA-NI
    and AVX-512 (F, VL, BW, the ZMM state saved by the OS) as asked."""
    leaf7_ebx = BMI1 | AVX2 | BMI2 | (SHA if sha else 0) | (AVX512F | AVX512VL | AVX512BW if avx512 else 0)
    return dict(vendor=vendor, leaf1=(signature(family, model), 0, SSSE3 | SSE41 | OSXSAVE | AVX, 0),
                leaf7=(0, leaf7_ebx, 0, 0), xcr0=ZMM_STATE if avx512 else YMM_STATE, max_leaf=0x10)


INTEL_6 = "Intel family 6"
ZEN5_SERVER = "AMD Zen 5 server (family 1Ah, models 00h-1Fh)"
ZEN5_DESKTOP = "AMD Zen 5 desktop (family 1Ah, models 40h-4Fh)"
ZEN4_GENOA = "AMD Zen 4 (family 19h, models 10h-1Fh)"
ZEN4_CLIENT = "AMD Zen 4 (family 19h, models 60h-7Fh)"
ZEN4_BERGAMO = "AMD Zen 4 (family 19h, models A0h-AFh)"
ZEN3 = "AMD Zen 3 (family 19h, other models)"
WIDE = ["wide-lanes"]
FOUR = ["shani-4way"]

# (what it is, vendor, family, model, the table's entry naming it (None: no entry), its advice)
CPUS = [
    ("Intel Sapphire Rapids", "GenuineIntel", 0x06, 0x8F, INTEL_6, WIDE),
    ("Intel Emerald Rapids (the extended model read)", "GenuineIntel", 0x06, 0xCF, INTEL_6, WIDE),
    ("Intel Ice Lake server", "GenuineIntel", 0x06, 0x6A, INTEL_6, WIDE),
    ("Intel family 0Fh (the extended family read; no entry)", "GenuineIntel", 0x0F, 0x06, None, []),
    ("AMD Zen 5 Turin, family 1Ah model 02h (measured)", "AuthenticAMD", 0x1A, 0x02, ZEN5_SERVER, WIDE),
    ("AMD Zen 5 Turin dense, model 11h", "AuthenticAMD", 0x1A, 0x11, ZEN5_SERVER, WIDE),
    ("AMD family 1Ah model 00h, the server range's first", "AuthenticAMD", 0x1A, 0x00, ZEN5_SERVER, WIDE),
    ("AMD family 1Ah model 1Fh, the server range's last", "AuthenticAMD", 0x1A, 0x1F, ZEN5_SERVER, WIDE),
    ("AMD Zen 5 Granite Ridge desktop, model 44h", "AuthenticAMD", 0x1A, 0x44, ZEN5_DESKTOP, WIDE),
    ("AMD family 1Ah model 40h, the desktop range's first", "AuthenticAMD", 0x1A, 0x40, ZEN5_DESKTOP, WIDE),
    ("AMD family 1Ah model 4Fh, the desktop range's last", "AuthenticAMD", 0x1A, 0x4F, ZEN5_DESKTOP, WIDE),
    ("AMD Zen 5 Strix Point mobile, model 24h (256-bit halves)", "AuthenticAMD", 0x1A, 0x24, None, []),
    ("AMD family 1Ah model 20h, just past the server range", "AuthenticAMD", 0x1A, 0x20, None, []),
    ("AMD family 1Ah model 3Fh, just before the desktop range", "AuthenticAMD", 0x1A, 0x3F, None, []),
    ("AMD family 1Ah model 50h, just past the desktop range", "AuthenticAMD", 0x1A, 0x50, None, []),
    ("AMD Zen 5 Krackan mobile, model 60h", "AuthenticAMD", 0x1A, 0x60, None, []),
    ("AMD Zen 5 Strix Halo mobile, model 70h", "AuthenticAMD", 0x1A, 0x70, None, []),
    ("AMD Zen 4 Genoa, family 19h model 11h (measured)", "AuthenticAMD", 0x19, 0x11, ZEN4_GENOA, FOUR),
    ("AMD family 19h model 10h, Genoa's range's first", "AuthenticAMD", 0x19, 0x10, ZEN4_GENOA, FOUR),
    ("AMD family 19h model 1Fh, Genoa's range's last", "AuthenticAMD", 0x19, 0x1F, ZEN4_GENOA, FOUR),
    ("AMD Zen 4 Raphael, family 19h model 61h", "AuthenticAMD", 0x19, 0x61, ZEN4_CLIENT, FOUR),
    ("AMD Zen 4 Phoenix, family 19h model 74h", "AuthenticAMD", 0x19, 0x74, ZEN4_CLIENT, FOUR),
    ("AMD family 19h model 7Fh, the client range's last", "AuthenticAMD", 0x19, 0x7F, ZEN4_CLIENT, FOUR),
    ("AMD Zen 4c Bergamo, family 19h model A0h", "AuthenticAMD", 0x19, 0xA0, ZEN4_BERGAMO, FOUR),
    ("AMD family 19h model AFh, Bergamo's range's last", "AuthenticAMD", 0x19, 0xAF, ZEN4_BERGAMO, FOUR),
    ("AMD Zen 3 Milan, family 19h model 01h (measured)", "AuthenticAMD", 0x19, 0x01, ZEN3, []),
    ("AMD Zen 3 Vermeer, family 19h model 21h", "AuthenticAMD", 0x19, 0x21, ZEN3, []),
    ("AMD Zen 3 Cezanne, family 19h model 50h (between the Zen 4 ranges)", "AuthenticAMD", 0x19, 0x50, ZEN3, []),
    ("AMD family 19h model 20h, just past Genoa's range", "AuthenticAMD", 0x19, 0x20, ZEN3, []),
    ("AMD family 19h model B0h, just past Bergamo's range", "AuthenticAMD", 0x19, 0xB0, ZEN3, []),
    ("AMD Zen 2, family 17h (an AMD family with no entry)", "AuthenticAMD", 0x17, 0x31, None, []),
    ("Hygon Dhyana (a vendor with no entry)", "HygonGenuine", 0x18, 0x01, None, []),
    ("an unknown vendor giving Intel's family 6", "CentaurHauls", 0x06, 0x0F, None, []),
]
COMBINATIONS = [(sha, avx512) for sha in (True, False) for avx512 in (True, False)]


def expected_row(sha, avx512, advice):
    """The rule docs/architecture.md ("Rows and CPUs") states: where the table advises wide lanes,
    SHA-NI with AVX-512's lanes; where it advises four SHA-NI chains, those (with AVX-512); else SHA-NI's two;
    AVX-512's lanes beside AVX2's single stream without SHA-NI, whatever the table says; the
    AVX2 + BMI2 row without either."""
    if sha and avx512 and "wide-lanes" in advice:
        return SHANI_AVX512
    if sha and avx512 and "shani-4way" in advice:  # its four lanes' words live in AVX-512VL's registers
        return SHANI_4WAY
    if sha:
        return SHANI
    return AVX512 if avx512 else AVX2_1WAY


COMPILED = {impl.name for impl in libsha.dispatch.implementations()}
X86_ROWS = {SHANI_AVX512, SHANI_4WAY, SHANI, AVX512, AVX2_1WAY}


@pytest.mark.parametrize("sha, avx512", COMBINATIONS, ids=lambda v: "yes" if v else "no")
@pytest.mark.parametrize("what, vendor, family, model, entry, advice", CPUS, ids=[c[0] for c in CPUS])
def test_each_modeled_cpu(what, vendor, family, model, entry, advice, sha, avx512):
    decision = decide_x86(**readings(vendor, family, model, sha, avx512))
    assert decision.model == entry
    assert decision.tuning == advice
    assert set(decision.features) == {"sse4.1", "avx", "avx2", "bmi2"} | ({"sha"} if sha else set()) \
        | ({"avx512"} if avx512 else set())
    if X86_ROWS <= COMPILED:
        assert decision.implementation == expected_row(sha, avx512, advice)
    elif not X86_ROWS & COMPILED:  # a build for another architecture: no x86 row to take
        assert decision.implementation == "standard"
    else:
        pytest.skip(f"this build lacks x86 rows: {sorted(X86_ROWS - COMPILED)}")
    assert implementation_for(decision.features, decision.tuning) == decision.implementation


def test_every_entry_of_the_table_is_pinned_here():
    # An entry added to cpu_models.c without a case here, or one whose advice changed, fails.
    pinned = {(entry, tuple(advice)) for *_, entry, advice in CPUS if entry is not None}
    assert {(name, tuple(advice)) for name, advice in libsha.dispatch.cpu_models()} == pinned


def test_the_first_matching_entry_decides_and_a_missing_leaf_1_names_nothing():
    # Zen 3's entry, after Zen 4's, covers the rest of family 19h; with no leaf 1 to read, no family is known.
    assert decide_x86(**readings("AuthenticAMD", 0x19, 0xFF, True, True)).model == ZEN3
    bare = readings("GenuineIntel", 0x06, 0x8F, True, True)
    assert decide_x86(**dict(bare, max_leaf=0)) == ([], [], None, "standard")


@pytest.mark.parametrize("bad, error", [
    (dict(vendor="GenuineInte"), ValueError),  # 11 characters
    (dict(vendor="GenuineIntel!"), ValueError),
    (dict(vendor="GenuineIntél"), ValueError),
    (dict(vendor=b"GenuineIntel"), TypeError),
    (dict(leaf1=(0, 0, 0)), ValueError),
    (dict(leaf7=(0, 0, 0, 0, 0)), ValueError),
    (dict(leaf1="abcd"), TypeError),
    (dict(leaf7=7), TypeError),
    (dict(leaf1=(1 << 32, 0, 0, 0)), ValueError),
    (dict(leaf7=(0, -1, 0, 0)), ValueError),
    (dict(xcr0=1 << 64), ValueError),
    (dict(xcr0=-1), ValueError),
    (dict(max_leaf=1 << 32), ValueError),
    (dict(leaf1=(0.5, 0, 0, 0)), TypeError),
    (dict(xcr0="7"), TypeError),
])
def test_decide_x86_refuses_readings_no_cpu_gives(bad, error):
    with pytest.raises(error):
        decide_x86(**dict(readings("GenuineIntel", 0x06, 0x8F, True, True), **bad))


@pytest.mark.parametrize("args, error, match", [
    ((["sha", "nosuch"],), ValueError, "unknown feature 'nosuch'"),
    ((["sha"], ["narrow-lanes"]), ValueError, "unknown tuning advice 'narrow-lanes'"),
    (("sha",), TypeError, "list of names"),
    ((["sha"], "wide-lanes"), TypeError, "list of names"),
    ((["sha"], [], 16), ValueError, "USE_"),
    ((["sha"], [], -1), ValueError, "USE_"),
    ((["sha"], [], "all"), TypeError, None),
])
def test_implementation_for_refuses_what_it_does_not_know(args, error, match):
    with pytest.raises(error, match=match):
        implementation_for(*args)
