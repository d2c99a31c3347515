/* The harnesses' choice of row: the one an input's selector byte picks, or the next runnable one
 * where it names one this CPU lacks, made active; its name. Every input runs on some row. */
#ifndef LIBSHA_FUZZ_ROW_H
#define LIBSHA_FUZZ_ROW_H

#include <stdlib.h>

#include "libsha_dispatch.h"

static const char *fuzz_select_row(unsigned selector)
{
    size_t count = 0, i;
    int runnable;
    while (libsha_implementation_at(count, NULL) != NULL)
        ++count;
    for (i = 0; i < count; ++i) {
        const char *name = libsha_implementation_at((selector + i) % count, &runnable);
        if (runnable && libsha_select(name) == LIBSHA_OK)
            return name;
    }
    abort(); /* 'standard' always runs */
}

#endif
