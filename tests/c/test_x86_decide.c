/* The x86 detection decision, fed synthetic CPUID and XCR0 readings. */
#include <stdio.h>

#include "cpu_features.h"
#include "libsha.h"

#define SSSE3 (1u << 9)
#define SSE41 (1u << 19)
#define OSXSAVE (1u << 27)
#define AVX (1u << 28)
#define BMI1_7 (1u << 3)
#define AVX2_7 (1u << 5)
#define BMI2_7 (1u << 8)
#define SHA_7 (1u << 29)
#define AVX512F_7 (1u << 16)
#define AVX512BW_7 (1u << 30)
#define AVX512VL_7 (1u << 31)
#define AVX512_7 (AVX512F_7 | AVX512BW_7 | AVX512VL_7)
#define YMM_SAVED 0x7u
#define ZMM_SAVED 0xe7u /* x87, XMM, YMM, opmask, ZMM0-15 upper, ZMM16-31 */

/* The readings the decision looks at: max leaf, leaf 1 ECX, leaf 7 EBX, XCR0. */
#define ID(max, ecx1, ebx7, saved) \
    {.max_leaf = (max), .leaf1 = {[LIBSHA_ECX] = (ecx1)}, .leaf7 = {[LIBSHA_EBX] = (ebx7)}, .xcr0 = (saved)}

#define ALL_ECX (SSSE3 | SSE41 | OSXSAVE | AVX)
#define ALL_CPU (LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX | LIBSHA_CPU_AVX2 | LIBSHA_CPU_X86_SHA)
#define AVX2_CPU (LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX | LIBSHA_CPU_AVX2 | LIBSHA_CPU_BMI2)
#define AVX512_EBX (AVX2_7 | BMI1_7 | BMI2_7 | AVX512_7)
/* leaf 1 EAX: family 6 (Intel's), and AMD's 0x19 (0xf + extended 0x0a) */
#define FAMILY_6 (6u << 8)
#define FAMILY_19H ((0xfu << 8) | (0x0au << 20))
#define FAMILY_1AH ((0xfu << 8) | (0x0bu << 20))
#define MODEL(m) ((((m) & 0xfu) << 4) | ((((m) >> 4) & 0xfu) << 16))
#define ZEN5(model) VENDOR_ID("AuthenticAMD", FAMILY_1AH | MODEL(model), 0x10, ALL_ECX, AVX512_EBX | SHA_7, ZMM_SAVED)
#define WIDE_SHANI_CPU (AVX2_CPU | LIBSHA_CPU_AVX512 | LIBSHA_CPU_X86_SHA)
#define VENDOR_ID(who, eax1, max, ecx1, ebx7, saved)                                                        \
    {.max_leaf = (max), .vendor = who, .leaf1 = {[LIBSHA_EAX] = (eax1), [LIBSHA_ECX] = (ecx1)},            \
     .leaf7 = {[LIBSHA_EBX] = (ebx7)}, .xcr0 = (saved)}

static const struct {
    const char *name;
    struct libsha_x86_cpuid id;
    unsigned expected;
} cases[] = {
    {"everything present", ID(7, ALL_ECX, AVX2_7 | BMI1_7 | BMI2_7 | SHA_7, YMM_SAVED), ALL_CPU | LIBSHA_CPU_BMI2},
    {"AVX2 without BMI2 (the AVX2 row without its single stream)", ID(7, ALL_ECX, AVX2_7 | BMI1_7, YMM_SAVED),
     LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX | LIBSHA_CPU_AVX2},
    {"BMI2 without BMI1", ID(7, ALL_ECX, AVX2_7 | BMI2_7, YMM_SAVED), LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX | LIBSHA_CPU_AVX2},
    {"BMI1 and BMI2 without OS-saved YMM: BMI2 alone, no AVX", ID(7, ALL_ECX, AVX2_7 | BMI1_7 | BMI2_7, 0x3),
     LIBSHA_CPU_SSE41 | LIBSHA_CPU_BMI2},
    {"BMI1 and BMI2 bits in leaf 7 ECX, not EBX",
     {.max_leaf = 7, .leaf1 = {[LIBSHA_ECX] = SSSE3 | SSE41}, .leaf7 = {[LIBSHA_ECX] = BMI1_7 | BMI2_7}}, LIBSHA_CPU_SSE41},
    {"AVX2 bit set but OSXSAVE clear", ID(7, SSSE3 | SSE41 | AVX, AVX2_7 | SHA_7, YMM_SAVED),
     LIBSHA_CPU_SSE41 | LIBSHA_CPU_X86_SHA},
    {"OS does not save YMM state", ID(7, ALL_ECX, AVX2_7, 0x3), LIBSHA_CPU_SSE41},
    {"OS saves YMM but not XMM", ID(7, ALL_ECX, AVX2_7, 0x5), LIBSHA_CPU_SSE41},
    {"AVX2 without AVX", ID(7, SSSE3 | SSE41 | OSXSAVE, AVX2_7, YMM_SAVED), LIBSHA_CPU_SSE41},
    {"max leaf below 7: leaf-7 bits alias another leaf", ID(6, ALL_ECX, AVX2_7 | SHA_7, YMM_SAVED),
     LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX},
    {"SHA without SSE4.1", ID(7, SSSE3 | OSXSAVE | AVX, SHA_7, YMM_SAVED), LIBSHA_CPU_AVX},
    {"SSE4.1 without SSSE3", ID(7, SSE41, SHA_7, 0), 0},
    {"SSE4.1 and SSSE3 only", ID(1, SSSE3 | SSE41, 0, 0), LIBSHA_CPU_SSE41},
    {"max leaf 0", ID(0, ALL_ECX, AVX2_7 | SHA_7, YMM_SAVED), 0},
    {"SHA and SSE4.1, no AVX (e.g. Goldmont)", ID(21, SSSE3 | SSE41, SHA_7, 0),
     LIBSHA_CPU_SSE41 | LIBSHA_CPU_X86_SHA},
    {"SHA's bit in leaf 7 ECX, not EBX",
     {.max_leaf = 7, .leaf1 = {[LIBSHA_ECX] = SSSE3 | SSE41}, .leaf7 = {[LIBSHA_ECX] = SHA_7}}, LIBSHA_CPU_SSE41},
    {"AVX2's bit in leaf 1 ECX position 5, not leaf 7", ID(7, ALL_ECX | (1u << 5), 0, YMM_SAVED),
     LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX},
    /* AVX-512: F, VL and BW together, and the OS saving all three parts of the ZMM state. */
    {"AVX-512F, VL and BW, ZMM state saved (Skylake-SP)", ID(7, ALL_ECX, AVX512_EBX, ZMM_SAVED),
     AVX2_CPU | LIBSHA_CPU_AVX512},
    {"AVX-512F without VL or BW (Knights Landing)", ID(7, ALL_ECX, AVX512_EBX & ~(AVX512VL_7 | AVX512BW_7), ZMM_SAVED),
     AVX2_CPU},
    {"AVX-512F and BW without VL", ID(7, ALL_ECX, AVX512_EBX & ~AVX512VL_7, ZMM_SAVED), AVX2_CPU},
    {"AVX-512F and VL without BW", ID(7, ALL_ECX, AVX512_EBX & ~AVX512BW_7, ZMM_SAVED), AVX2_CPU},
    {"AVX-512 with the OS not saving ZMM state (XCR0 bits 5-7 clear)", ID(7, ALL_ECX, AVX512_EBX, YMM_SAVED),
     AVX2_CPU},
    {"AVX-512 with opmask saved but not the upper ZMM halves", ID(7, ALL_ECX, AVX512_EBX, YMM_SAVED | 0x20),
     AVX2_CPU},
    {"AVX-512 with ZMM0-15 saved but not ZMM16-31", ID(7, ALL_ECX, AVX512_EBX, YMM_SAVED | 0x60), AVX2_CPU},
    {"AVX-512 without AVX2", ID(7, ALL_ECX, AVX512_7 | BMI1_7 | BMI2_7, ZMM_SAVED),
     LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX | LIBSHA_CPU_BMI2},
    {"AVX-512 bits without OSXSAVE", ID(7, SSSE3 | SSE41 | AVX, AVX512_EBX, ZMM_SAVED),
     LIBSHA_CPU_SSE41 | LIBSHA_CPU_BMI2},
    /* The CPU model table: Intel family 6 and AMD's full-width Zen 5 prefer AVX-512's lanes to
     * SHA-NI's; Zen 4, mobile Zen 5 and others do not. */
    {"Intel family 6 with SHA-NI and AVX-512 (Sapphire Rapids)",
     VENDOR_ID("GenuineIntel", FAMILY_6 | (0xfu << 4) | (0x8u << 16), 0x20, ALL_ECX, AVX512_EBX | SHA_7, ZMM_SAVED),
     AVX2_CPU | LIBSHA_CPU_AVX512 | LIBSHA_CPU_X86_SHA | LIBSHA_TUNE_WIDE_LANES},
    {"AMD family 19h with SHA-NI and AVX-512 (Zen 4)",
     VENDOR_ID("AuthenticAMD", FAMILY_19H | (0x1u << 4), 0x10, ALL_ECX, AVX512_EBX | SHA_7, ZMM_SAVED),
     AVX2_CPU | LIBSHA_CPU_AVX512 | LIBSHA_CPU_X86_SHA},
    {"AMD family 1Ah model 02h (Zen 5 Turin, measured)", ZEN5(0x02), WIDE_SHANI_CPU | LIBSHA_TUNE_WIDE_LANES},
    {"AMD family 1Ah model 11h (Zen 5 Turin dense)", ZEN5(0x11), WIDE_SHANI_CPU | LIBSHA_TUNE_WIDE_LANES},
    {"AMD family 1Ah model 1Fh (the server range's last)", ZEN5(0x1f), WIDE_SHANI_CPU | LIBSHA_TUNE_WIDE_LANES},
    {"AMD family 1Ah model 44h (Zen 5 Granite Ridge desktop)", ZEN5(0x44), WIDE_SHANI_CPU | LIBSHA_TUNE_WIDE_LANES},
    {"AMD family 1Ah model 24h (Zen 5 Strix Point, 256-bit halves)", ZEN5(0x24), WIDE_SHANI_CPU},
    {"AMD family 1Ah model 20h (just past the server range)", ZEN5(0x20), WIDE_SHANI_CPU},
    {"AMD family 1Ah model 60h (Zen 5 Krackan)", ZEN5(0x60), WIDE_SHANI_CPU},
    {"AMD family 1Ah model 70h (Zen 5 Strix Halo)", ZEN5(0x70), WIDE_SHANI_CPU},
    {"AMD family 19h model 61h (Zen 4 Raphael)",
     VENDOR_ID("AuthenticAMD", FAMILY_19H | MODEL(0x61), 0x10, ALL_ECX, AVX512_EBX | SHA_7, ZMM_SAVED), WIDE_SHANI_CPU},
    {"AMD family 1Ah without AVX-512 (tuned, but no AVX-512 row to take)",
     VENDOR_ID("AuthenticAMD", FAMILY_1AH | MODEL(0x02), 0x10, ALL_ECX, AVX2_7 | BMI1_7 | BMI2_7 | SHA_7, YMM_SAVED),
     AVX2_CPU | LIBSHA_CPU_X86_SHA | LIBSHA_TUNE_WIDE_LANES},
    {"Intel family 6 model 0xCF (Emerald Rapids: extended model read)",
     VENDOR_ID("GenuineIntel", FAMILY_6 | MODEL(0xcf), 0x20, ALL_ECX, AVX512_EBX | SHA_7, ZMM_SAVED),
     WIDE_SHANI_CPU | LIBSHA_TUNE_WIDE_LANES},
    {"Intel family 15 (an extended family Intel never gave SHA-NI)",
     VENDOR_ID("GenuineIntel", 0xfu << 8, 7, ALL_ECX, AVX512_EBX | SHA_7, ZMM_SAVED),
     AVX2_CPU | LIBSHA_CPU_AVX512 | LIBSHA_CPU_X86_SHA},
    {"an unknown vendor", VENDOR_ID("HygonGenuine", FAMILY_6, 7, ALL_ECX, AVX512_EBX | SHA_7, ZMM_SAVED),
     AVX2_CPU | LIBSHA_CPU_AVX512 | LIBSHA_CPU_X86_SHA},
};

int main(void)
{
    int passed = 0, failed = 0;
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        unsigned got = libsha_x86_decide(&cases[i].id);
        if (got == cases[i].expected) {
            ++passed;
        } else {
            ++failed;
            printf("FAIL %s: got 0x%x, expected 0x%x\n", cases[i].name, got, cases[i].expected);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
