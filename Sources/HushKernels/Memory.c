// Giving freed heap memory back to the operating system (glibc keeps it for reuse otherwise).
#include "HushKernels.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void hush_release_free_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
