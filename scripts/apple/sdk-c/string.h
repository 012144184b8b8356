/* Minimal restatement for compile checks (scripts/check-apple-kernels), not Apple's header: memory and strings. */
#ifndef HUSH_SDK_C_STRING_H
#define HUSH_SDK_C_STRING_H

#include <stddef.h>

void *memcpy(void *destination, const void *source, size_t count);
int strcmp(const char *left, const char *right);

#endif
