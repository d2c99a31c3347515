/* The x86 detection decision's features, fed synthetic CPUID and XCR0 readings through the exported
 * libsha_x86_decide. The CPUID bits are the library's own names for them (dispatch/cpu_features.h; on a real
 * CPU tests/rows/test_dispatch.py holds them against the kernel's reading). The CPU model table's
 * entries, with vendor, family and model, are tests/rows/test_cpu_models.py's. */
#include <stdio.h>

#include "dispatch/cpu_features.h"
#include "libsha_dispatch.h"

#define SSSE3 LIBSHA_ECX1_SSSE3
#define SSE41 LIBSHA_ECX1_SSE41
#define OSXSAVE LIBSHA_ECX1_OSXSAVE
#define AVX LIBSHA_ECX1_AVX
#define BMI1_7 LIBSHA_EBX7_BMI1
#define AVX2_7 LIBSHA_EBX7_AVX2
#define BMI2_7 LIBSHA_EBX7_BMI2
#define SHA_7 LIBSHA_EBX7_SHA
#define AVX512F_7 LIBSHA_EBX7_AVX512F
#define AVX512BW_7 LIBSHA_EBX7_AVX512BW
#define AVX512VL_7 LIBSHA_EBX7_AVX512VL
#define AVX512_7 (AVX512F_7 | AVX512BW_7 | AVX512VL_7)
#define YMM_SAVED (0x1u | LIBSHA_XCR0_SSE_AND_YMM) /* x87, XMM, YMM */
#define ZMM_SAVED (YMM_SAVED | LIBSHA_XCR0_ZMM)   /* and opmask, ZMM0-15 upper, ZMM16-31 */

/* The readings the decision looks at: max leaf, leaf 1 ECX, leaf 7 EBX, XCR0 (no vendor: no model entry). */
#define ID(max, ecx1, ebx7, saved) \
    {.max_leaf = (max), .leaf1 = {[LIBSHA_ECX] = (ecx1)}, .leaf7 = {[LIBSHA_EBX] = (ebx7)}, .xcr0 = (saved)}

#define ALL_ECX (SSSE3 | SSE41 | OSXSAVE | AVX)
#define ALL_CPU (LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX | LIBSHA_CPU_AVX2 | LIBSHA_CPU_X86_SHA)
#define AVX2_CPU (LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX | LIBSHA_CPU_AVX2 | LIBSHA_CPU_BMI2)
#define AVX512_EBX (AVX2_7 | BMI1_7 | BMI2_7 | AVX512_7)

static const struct {
    const char *name;
    libsha_x86_cpuid id;
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
};

int main(void)
{
    int passed = 0, failed = 0;
    size_t i;
    unsigned features = 0, tuning = 1;
    const char *model = "unset";
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        if (libsha_x86_decide(&cases[i].id, &features, &tuning, &model) == LIBSHA_OK && features == cases[i].expected
            && tuning == 0 && model == NULL) {
            ++passed;
        } else {
            ++failed;
            printf("FAIL %s: got 0x%x (tuning 0x%x, model %s), expected 0x%x\n", cases[i].name, features, tuning,
                   model ? model : "none", cases[i].expected);
        }
    }
    /* The contract: a NULL reading is refused with nothing written; NULL outputs are skipped. */
    features = 12345;
    if (libsha_x86_decide(NULL, &features, &tuning, &model) == LIBSHA_ERR_NULL && features == 12345
        && libsha_x86_decide(&cases[0].id, NULL, NULL, NULL) == LIBSHA_OK)
        ++passed;
    else
        ++failed, printf("FAIL the NULL contract\n");
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
