// OpenBLAS through its CBLAS interface (Debian: libopenblas-dev).
//
// Hush does not link OpenBLAS at build time: it loads it at first use (dlopen), so that it can choose the
// CPU kernels first: OPENBLAS_CORETYPE, read once when the library loads, may be set by the environment to
// older kernels (AVX2 "Haswell" on a CPU with AVX-512 runs this model's shapes at about half the GFLOP/s).
// See Sources/HushEmbedding/Model/BLAS.swift.
#include <cblas.h>

typedef void (*hush_cblas_sgemm_fn)(const enum CBLAS_ORDER order, const enum CBLAS_TRANSPOSE transA,
                                    const enum CBLAS_TRANSPOSE transB, const blasint m, const blasint n,
                                    const blasint k, const float alpha, const float *a, const blasint lda,
                                    const float *b, const blasint ldb, const float beta, float *c,
                                    const blasint ldc);
typedef void (*hush_openblas_set_num_threads_fn)(int threads);
typedef char *(*hush_openblas_get_corename_fn)(void);
