/* Minimal restatement for compile checks (scripts/check-apple-kernels), not Apple's header: the current CBLAS
   interface's matrix product, as Sources/HushKernels/AccelerateBLAS.c uses it. */
#ifndef HUSH_SDK_C_ACCELERATE_H
#define HUSH_SDK_C_ACCELERATE_H

#if !defined(ACCELERATE_NEW_LAPACK)
#error "the current CBLAS interface is chosen by defining ACCELERATE_NEW_LAPACK before this header"
#endif

/* The interface's integer: 32 bits unless the 64-bit interface (ACCELERATE_LAPACK_ILP64) is chosen. */
#if defined(ACCELERATE_LAPACK_ILP64)
typedef long __LAPACK_int;
#else
typedef int __LAPACK_int;
#endif

enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 };

void cblas_sgemm(const enum CBLAS_ORDER order, const enum CBLAS_TRANSPOSE transpose_a,
                 const enum CBLAS_TRANSPOSE transpose_b, const __LAPACK_int m, const __LAPACK_int n,
                 const __LAPACK_int k, const float alpha, const float *a, const __LAPACK_int lda, const float *b,
                 const __LAPACK_int ldb, const float beta, float *c, const __LAPACK_int ldc);

#endif
