/* The CPU model table: where a CPU runs two rows and measurement showed which one is faster there,
 * the LIBSHA_TUNE_* advice that makes the automatic choice take it. Pure (no CPUID here) and built
 * on every architecture, so any machine can ask what the table says for another CPU. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dispatch/cpu_features.h"
#include "libsha_dispatch.h"

/* By vendor, family and model range, from measurements and cited figures (docs/architecture.md,
 * "Rows and CPUs"); the first entry that matches decides, and a CPU no entry names gets none.
 * - Intel family 6 (Ice Lake to Sapphire Rapids, AVX-512 in full 512-bit units, a SHA-NI slower per
 *   lane than AMD's): 16 AVX-512 lanes hashed 1.6-1.9 x as fast as 2 SHA-NI lanes.
 * - AMD Zen 5 server (family 1Ah models 00h-1Fh, Turin) and desktop (40h-4Fh, Granite Ridge), with
 *   the full 512-bit datapath: measured on family 1Ah model 02h, the AVX-512 row 1.3-1.95 x the
 *   SHA-NI row on batches (SHA256D64, Merkle roots, many messages).
 * - AMD Zen 5 mobile parts (Strix Point 20h-2Fh, Krackan 60h-6Fh, Strix Halo 70h-7Fh) run 512-bit
 *   operations in two 256-bit halves, which halves 16 lanes' rate: below 2 SHA-NI lanes, so no entry.
 * - AMD Zen 4 (family 19h: Genoa 10h-1Fh, Raphael and Phoenix 60h-7Fh, Bergamo A0h-AFh) splits
 *   every 512-bit operation in two and keeps four sha256rnds2 in flight: measured on model 11h,
 *   x86_shani(1way,2way,4way)'s four chains beat two on batches and D64 (docs/architecture.md);
 *   the row needs AVX-512VL (its four lanes' words in XMM16-31), so a VM hiding it gets two lanes.
 * - AMD Zen 3 (family 19h, the other models) has no AVX-512, and three or four SHA-NI chains
 *   gained nothing over two (measured on model 01h): SHA-NI's two lanes stay, written here so the
 *   decision is seen to be made.
 * Each entry's name says which CPUs it covers, as libsha_cpu_model() reports it.
 *
 * The wide window: a row of two engines (SHA-NI lanes and AVX-512 lanes in one batch) sends the
 * messages of wide_from <= length < wide_to to its AVX-512 lanes and the others to SHA-NI's.
 * - Zen 4, measured on model 11h (docs/architecture.md, "Rows and CPUs"): SHA-NI's lanes 14 % faster
 *   at 256 B, AVX-512's 1 % faster at 1 KiB and 4 % on a batch of 0-2 KiB, SHA-NI's 8 % faster at
 *   16 KiB again; each bound is the middle of the two lengths measured around it: [512, 4096).
 * - Intel family 6 and Zen 5 (measured): AVX-512's 16 lanes are faster at every length measured, from
 *   64 B to 16 KiB: the whole range.
 * - Zen 3 and CPUs no entry names have no AVX-512 to measure; a row of two engines forced there (only
 *   the emulated CPU of the tests runs one) takes Zen 4's window. */
#define WHOLE_RANGE 0, SIZE_MAX
#define ZEN4_WINDOW 512, 4096
static const struct {
    const char *name;
    char vendor[13];
    uint32_t family;             /* as leaf 1 gives it, extended family added */
    uint32_t model_lo, model_hi; /* model with the extended model, inclusive */
    unsigned tune;
    size_t wide_from, wide_to;   /* the wide window, above */
} models[] = {
    {"Intel family 6", "GenuineIntel", 0x06, 0x00, 0xff, LIBSHA_TUNE_WIDE_LANES, WHOLE_RANGE},
    {"AMD Zen 5 server (family 1Ah, models 00h-1Fh)", "AuthenticAMD", 0x1a, 0x00, 0x1f, LIBSHA_TUNE_WIDE_LANES,
     WHOLE_RANGE},
    {"AMD Zen 5 desktop (family 1Ah, models 40h-4Fh)", "AuthenticAMD", 0x1a, 0x40, 0x4f, LIBSHA_TUNE_WIDE_LANES,
     WHOLE_RANGE},
    {"AMD Zen 4 (family 19h, models 10h-1Fh)", "AuthenticAMD", 0x19, 0x10, 0x1f, LIBSHA_TUNE_SHANI_4WAY, ZEN4_WINDOW},
    {"AMD Zen 4 (family 19h, models 60h-7Fh)", "AuthenticAMD", 0x19, 0x60, 0x7f, LIBSHA_TUNE_SHANI_4WAY, ZEN4_WINDOW},
    {"AMD Zen 4 (family 19h, models A0h-AFh)", "AuthenticAMD", 0x19, 0xa0, 0xaf, LIBSHA_TUNE_SHANI_4WAY, ZEN4_WINDOW},
    {"AMD Zen 3 (family 19h, other models)", "AuthenticAMD", 0x19, 0x00, 0xff, 0, ZEN4_WINDOW},
};

_Static_assert(sizeof models / sizeof models[0] < LIBSHA_DETECTION_ENTRIES, "an entry + 1 fits the detection word");

int libsha_x86_model_entry(const libsha_x86_cpuid *id)
{
    uint32_t eax = id->leaf1[0];
    uint32_t family = (eax >> 8) & 0xf, model = (eax >> 4) & 0xf;
    size_t i;
    if (id->max_leaf < 1)
        return -1; /* no leaf 1: no family to read */
    if (family == 0x6 || family == 0xf)
        model |= ((eax >> 16) & 0xf) << 4;
    if (family == 0xf)
        family += (eax >> 20) & 0xff;
    for (i = 0; i < sizeof models / sizeof models[0]; ++i)
        if (memcmp(id->vendor, models[i].vendor, 12) == 0 && family == models[i].family
            && model >= models[i].model_lo && model <= models[i].model_hi)
            return (int)i;
    return -1;
}

void libsha_cpu_model_window(int entry, size_t *wide_from, size_t *wide_to)
{
    static const size_t no_entry[2] = {ZEN4_WINDOW};
    int known = entry >= 0 && (size_t)entry < sizeof models / sizeof models[0];
    *wide_from = known ? models[entry].wide_from : no_entry[0];
    *wide_to = known ? models[entry].wide_to : no_entry[1];
}

const char *libsha_cpu_model_at(size_t index, unsigned *tuning)
{
    if (index >= sizeof models / sizeof models[0])
        return NULL;
    if (tuning != NULL)
        *tuning = models[index].tune;
    return models[index].name;
}
