/* macOS detection, built on any host against a stub sysctlbyname: the value
 * decides, not merely finding the name. */
#include <stdio.h>
#include <string.h>

#include "dispatch/cpu_features.h"
#include "libsha_dispatch.h"

static int stub_return, stub_value;
static size_t stub_size = sizeof(int);

int sysctlbyname(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);
int sysctlbyname(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen)
{
    (void)newp, (void)newlen;
    if (strcmp(name, "hw.optional.arm.FEAT_SHA256") != 0)
        return -1;
    if (stub_return == 0) {
        memcpy(oldp, &stub_value, sizeof stub_value);
        *oldlenp = stub_size;
    }
    return stub_return;
}

int main(void)
{
    static const struct {
        const char *name;
        int ret, value;
        unsigned expected;
    } cases[] = {
        {"value 1: present", 0, 1, LIBSHA_CPU_ARM_SHA2},
        {"value 0: absent, though the name exists", 0, 0, 0},
        {"error return: absent (older macOS)", -1, 1, 0},
    };
    int passed = 0, failed = 0;
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        unsigned got;
        stub_return = cases[i].ret, stub_value = cases[i].value;
        got = libsha_arm_detect_sysctl();
        if (got == cases[i].expected) {
            ++passed;
        } else {
            ++failed;
            printf("FAIL %s: got 0x%x\n", cases[i].name, got);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
