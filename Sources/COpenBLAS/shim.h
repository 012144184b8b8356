// OpenBLAS through its CBLAS interface (Debian: libopenblas-dev).
#include <cblas.h>
