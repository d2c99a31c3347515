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
#define YMM_SAVED 0x7u

/* The readings the decision looks at: max leaf, leaf 1 ECX, leaf 7 EBX, XCR0. */
#define ID(max, ecx1, ebx7, saved) \
    {.max_leaf = (max), .leaf1 = {[LIBSHA_ECX] = (ecx1)}, .leaf7 = {[LIBSHA_EBX] = (ebx7)}, .xcr0 = (saved)}

#define ALL_ECX (SSSE3 | SSE41 | OSXSAVE | AVX)
#define ALL_CPU (LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX | LIBSHA_CPU_AVX2 | LIBSHA_CPU_X86_SHA)

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
