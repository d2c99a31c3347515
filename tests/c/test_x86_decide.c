/* The x86 detection decision, fed synthetic CPUID and XCR0 readings. */
#include <stdio.h>

#include "cpu_features.h"
#include "libsha.h"

#define SSSE3 (1u << 9)
#define SSE41 (1u << 19)
#define OSXSAVE (1u << 27)
#define AVX (1u << 28)
#define AVX2_7 (1u << 5)
#define SHA_7 (1u << 29)
#define YMM_SAVED 0x7u

#define ALL_ECX (SSSE3 | SSE41 | OSXSAVE | AVX)
#define ALL_CPU (LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX | LIBSHA_CPU_AVX2 | LIBSHA_CPU_X86_SHA)

static const struct {
    const char *name;
    struct libsha_x86_cpuid id;
    unsigned expected;
} cases[] = {
    {"everything present", {7, ALL_ECX, AVX2_7 | SHA_7, YMM_SAVED}, ALL_CPU},
    {"AVX2 bit set but OSXSAVE clear", {7, SSSE3 | SSE41 | AVX, AVX2_7 | SHA_7, YMM_SAVED},
     LIBSHA_CPU_SSE41 | LIBSHA_CPU_X86_SHA},
    {"OS does not save YMM state", {7, ALL_ECX, AVX2_7, 0x3}, LIBSHA_CPU_SSE41},
    {"OS saves YMM but not XMM", {7, ALL_ECX, AVX2_7, 0x5}, LIBSHA_CPU_SSE41},
    {"AVX2 without AVX", {7, SSSE3 | SSE41 | OSXSAVE, AVX2_7, YMM_SAVED}, LIBSHA_CPU_SSE41},
    {"max leaf below 7: leaf-7 bits alias another leaf", {6, ALL_ECX, AVX2_7 | SHA_7, YMM_SAVED},
     LIBSHA_CPU_SSE41 | LIBSHA_CPU_AVX},
    {"SHA without SSE4.1", {7, SSSE3 | OSXSAVE | AVX, SHA_7, YMM_SAVED}, LIBSHA_CPU_AVX},
    {"SSE4.1 without SSSE3", {7, SSE41, SHA_7, 0}, 0},
    {"SSE4.1 and SSSE3 only", {1, SSSE3 | SSE41, 0, 0}, LIBSHA_CPU_SSE41},
    {"max leaf 0", {0, ALL_ECX, AVX2_7 | SHA_7, YMM_SAVED}, 0},
    {"SHA and SSE4.1, no AVX (e.g. Goldmont)", {21, SSSE3 | SSE41, SHA_7, 0},
     LIBSHA_CPU_SSE41 | LIBSHA_CPU_X86_SHA},
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
