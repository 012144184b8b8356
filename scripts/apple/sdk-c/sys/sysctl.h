/* Minimal restatement for compile checks (scripts/check-apple-kernels), not Apple's header: kernel state by name. */
#ifndef HUSH_SDK_C_SYS_SYSCTL_H
#define HUSH_SDK_C_SYS_SYSCTL_H

#include <stddef.h>

int sysctlbyname(const char *name, void *old_value, size_t *old_size, void *new_value, size_t new_size);

#endif
