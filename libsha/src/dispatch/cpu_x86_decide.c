/* The x86 decision, pure: CPUID and XGETBV readings in; the features libsha may use, the CPU model
 * table's advice and its entry out. Built on every architecture, so any machine can ask what
 * libsha decides on another CPU (tests/c/test_x86_decide.c, tests/rows/test_cpu_models.py);
 * cpu_x86.c feeds it this CPU's readings. */
#include <stddef.h>

#include "dispatch/cpu_features.h"
#include "libsha_dispatch.h"

static unsigned features_of(const libsha_x86_cpuid *id)
{
    unsigned features = 0;
    size_t i;

    for (i = 0; i < libsha_cpu_feature_count; ++i) {
        const struct libsha_cpu_feature *row = &libsha_cpu_feature_table[i];
        const uint32_t *regs = row->leaf == 1 ? id->leaf1 : id->leaf7;
        if (row->leaf == 0)
            continue; /* not an x86 feature */
        if (id->max_leaf < row->leaf)
            continue; /* the leaf would alias another one */
        if ((regs[row->reg] & row->bits) != row->bits)
            continue;
        if ((id->xcr0 & row->xcr0) != row->xcr0)
            continue;
        if ((features & row->needs) != row->needs)
            continue;
        features |= row->bit;
    }
    return features;
}

unsigned libsha_x86_detection(const libsha_x86_cpuid *id)
{
    int entry = libsha_x86_model_entry(id);
    unsigned tuning = 0;
    if (entry >= 0)
        libsha_cpu_model_at((size_t)entry, &tuning);
    return libsha_detection_word(features_of(id), tuning, entry);
}

int libsha_x86_decide(const libsha_x86_cpuid *id, unsigned *features, unsigned *tuning, const char **model)
{
    unsigned word;
    if (id == NULL)
        return LIBSHA_ERR_NULL;
    word = libsha_x86_detection(id);
    if (features != NULL)
        *features = libsha_detection_features(word);
    if (tuning != NULL)
        *tuning = libsha_detection_tuning(word);
    if (model != NULL)
        *model = libsha_detection_model(word);
    return LIBSHA_OK;
}
