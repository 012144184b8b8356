// Matrix products through Accelerate on Apple platforms, with its current CBLAS interface (the one before it is
// deprecated from iOS 16.4 and macOS 13.3, below the package's minimums). The define must come before the header,
// which a Swift `import Accelerate` cannot do: so the call lives here, in C. Elsewhere this file is empty.
#if defined(__APPLE__)

#define ACCELERATE_NEW_LAPACK
#include <Accelerate/Accelerate.h>

#include "HushKernels.h"

void hush_accelerate_sgemm(int transpose_b, int m, int n, int k, const float *a, int lda, const float *b, int ldb,
                           float *c, int ldc) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, transpose_b ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, lda, b, ldb,
                0.0f, c, ldc);
}

#endif
