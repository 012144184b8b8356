/* Minimal restatement for compile checks (scripts/check-apple-kernels), not Apple's header: heap, environment. */
#ifndef HUSH_SDK_C_STDLIB_H
#define HUSH_SDK_C_STDLIB_H

#include <stddef.h>

void *malloc(size_t size);
void *calloc(size_t count, size_t size);
void free(void *pointer);
int posix_memalign(void **pointer, size_t alignment, size_t size);
char *getenv(const char *name);

#endif
