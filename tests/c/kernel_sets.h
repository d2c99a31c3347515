/* Which rows of the library a test sweeps: each kernel once, on the first (best) row that names
 * it. A row's name lists its kernels as Bitcoin Core prints them ("isa(1way,2way),isa(8way)"), so
 * two rows naming the same one-way kernel share every one-stream path, two naming the same lane
 * kernels every many-message path. Shared by test_libsha.c and test_guard_pages.c. */
#ifndef LIBSHA_TESTS_KERNEL_SETS_H
#define LIBSHA_TESTS_KERNEL_SETS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lane positions a sweep puts its message in: one more than the widest kernel has lanes. A wider
 * kernel stops the test (widest_lanes), so this bound never narrows a sweep unseen. */
#define LANE_POSITIONS 17

/* A row's one-way kernel, and its lane kernels as one string ("isa:2;isa:8;"); 'standard' is one-way. */
static void kernels_of(const char *name, char one_way[64], char lanes[256])
{
    const char *p = name, *open, *close;
    one_way[0] = lanes[0] = '\0';
    if (strchr(name, '(') == NULL) {
        snprintf(one_way, 64, "%s", name);
        return;
    }
    while ((open = strchr(p, '(')) != NULL && (close = strchr(open, ')')) != NULL) {
        const char *w = open + 1;
        int isa = (int)(open - p);
        while (w < close) {
            char *end;
            unsigned long width = strtoul(w, &end, 10);
            size_t used = strlen(lanes);
            if (width == 1)
                snprintf(one_way, 64, "%.*s", isa, p);
            else
                snprintf(lanes + used, 256 - used, "%.*s:%lu;", isa, p, width);
            w = strchr(end, ',');
            if (w == NULL || w > close)
                break;
            ++w;
        }
        p = close + 1 + (close[1] == ',');
    }
}

/* The most lanes among kernels_of's lane kernels ("isa:2;isa:8;"): 1 where there are none. */
static size_t widest_lanes(const char *lanes)
{
    size_t widest = 1;
    const char *p = lanes;
    while ((p = strchr(p, ':')) != NULL) {
        size_t width = (size_t)strtoul(p + 1, NULL, 10);
        if (width >= LANE_POSITIONS) {
            printf("FAIL a kernel of %zu lanes (%s): raise LANE_POSITIONS in tests/c/kernel_sets.h\n", width, lanes);
            exit(1);
        }
        if (width > widest)
            widest = width;
        ++p;
    }
    return widest;
}

/* Whether value is new to seen (then added): a kernel's first row sweeps it. */
static int first_time(char seen[][256], size_t *count, const char *value)
{
    size_t i;
    for (i = 0; i < *count; ++i)
        if (strcmp(seen[i], value) == 0)
            return 0;
    if (*count < 64)
        snprintf(seen[(*count)++], 256, "%s", value);
    return 1;
}

/* The kernels of the row `name` that no earlier row named: *one_way_new for its one-stream paths,
 * *lanes_new for its many-message ones; *widest is its widest kernel's lanes (1: none). */
struct kernel_sets {
    char one_way[64][256], lanes[64][256];
    size_t one_way_count, lanes_count;
};

static void new_kernels(struct kernel_sets *seen, const char *name, int *one_way_new, int *lanes_new, size_t *widest)
{
    char one_way[64], lanes[256];
    kernels_of(name, one_way, lanes);
    *one_way_new = first_time(seen->one_way, &seen->one_way_count, one_way);
    *lanes_new = first_time(seen->lanes, &seen->lanes_count, lanes);
    *widest = widest_lanes(lanes);
}

#endif
