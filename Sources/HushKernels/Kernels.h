// Internal to HushKernels: the dispatch table, every level's kernels, and the constants the vectorised
// erf and exp share. Not part of the public header.
#ifndef HUSH_KERNELS_INTERNAL_H
#define HUSH_KERNELS_INTERNAL_H

#include "HushKernels.h"

/// One level's implementation of every public kernel.
typedef struct {
    float (*dot_f32)(const float *a, const float *b, size_t n);
    void (*dot_f32_rows)(const float *matrix, size_t rows, size_t dim, const float *query, float *out);
    int32_t (*dot_i8)(const int8_t *a, const int8_t *b, size_t n);
    void (*dot_i8_rows)(const int8_t *matrix, size_t rows, size_t dim, const int8_t *query, int32_t *out);
    int32_t (*dot_u4i8)(const uint8_t *codes, const int8_t *query, size_t blocks);
    uint32_t (*hamming)(const uint64_t *a, const uint64_t *b, size_t words);
    void (*hamming_rows)(const uint64_t *matrix, size_t rows, size_t words, const uint64_t *query, uint32_t *out);
    void (*add_bias_f32)(float *x, size_t rows, size_t cols, const float *bias);
    void (*bias_gelu_f32)(float *x, size_t rows, size_t cols, const float *bias);
    void (*bias_residual_layernorm_f32)(float *x, size_t rows, size_t cols, const float *bias,
                                        const float *residual, const float *gamma, const float *beta, float eps);
    void (*scaled_softmax_rows_f32)(float *x, size_t rows, size_t cols, size_t valid, float scale);
    void (*dequantize_q4_0)(const uint8_t *blocks, size_t count, float *out);
    void (*quantize_q8_0)(const float *x, size_t m, size_t k, size_t ldx, int8_t *q, float *d, int32_t *s);
    void (*matmul_q4_0_q8_0)(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k, const uint8_t *w,
                             size_t n, const float *bias, float *y, size_t ldy);
    void (*matmul_q4_0_q8_0_rows8)(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                   const uint8_t *packed, size_t n, const float *bias, float *y, size_t ldy);
    void (*pack_f16_panels)(const float *w, size_t n, size_t k, uint16_t *out);
    void (*matmul_f32_f16p)(const float *x, size_t m, size_t k, size_t ldx, const uint16_t *w, size_t n, float *y,
                            size_t ldy);
} hush_kernel_table;

// Scalar level (Scalar.c): the references plus row loops built on them.
void hush_dot_f32_rows_scalar(const float *m, size_t rows, size_t dim, const float *q, float *out);
void hush_dot_i8_rows_scalar(const int8_t *m, size_t rows, size_t dim, const int8_t *q, int32_t *out);
void hush_hamming_rows_scalar(const uint64_t *m, size_t rows, size_t words, const uint64_t *q, uint32_t *out);
void hush_add_bias_f32_scalar(float *x, size_t rows, size_t cols, const float *bias);

/// IEEE 754 binary16 to binary32 (subnormals, infinities and NaN included), without F16C.
static inline float hush_half_to_float(uint16_t bits) {
    const uint32_t sign = (uint32_t)(bits & 0x8000) << 16;
    const uint32_t exponent = (bits >> 10) & 0x1F, mantissa = bits & 0x3FF;
    union { uint32_t u; float f; } v;
    if (exponent == 0) {
        const float magnitude = (float)mantissa * (1.0f / 16777216.0f);  // mantissa x 2^-24
        return sign ? -magnitude : magnitude;
    }
    v.u = exponent == 0x1F ? (sign | 0x7F800000u | (mantissa << 13)) : (sign | ((exponent + 112) << 23) | (mantissa << 13));
    return v.f;
}

#if defined(__x86_64__)
// AVX2 + FMA level (KernelsAVX2.c).
float hush_dot_f32_avx2(const float *a, const float *b, size_t n);
void hush_dot_f32_rows_avx2(const float *m, size_t rows, size_t dim, const float *q, float *out);
int32_t hush_dot_i8_avx2(const int8_t *a, const int8_t *b, size_t n);
void hush_dot_i8_rows_avx2(const int8_t *m, size_t rows, size_t dim, const int8_t *q, int32_t *out);
int32_t hush_dot_u4i8_avx2(const uint8_t *codes, const int8_t *query, size_t blocks);
uint32_t hush_hamming_popcnt(const uint64_t *a, const uint64_t *b, size_t words);
void hush_hamming_rows_popcnt(const uint64_t *m, size_t rows, size_t words, const uint64_t *q, uint32_t *out);
void hush_add_bias_f32_avx2(float *x, size_t rows, size_t cols, const float *bias);
void hush_bias_gelu_f32_avx2(float *x, size_t rows, size_t cols, const float *bias);
void hush_bias_residual_layernorm_f32_avx2(float *x, size_t rows, size_t cols, const float *bias,
                                           const float *residual, const float *gamma, const float *beta, float eps);
void hush_scaled_softmax_rows_f32_avx2(float *x, size_t rows, size_t cols, size_t valid, float scale);
void hush_dequantize_q4_0_avx2(const uint8_t *blocks, size_t count, float *out);
void hush_quantize_q8_0_avx2(const float *x, size_t m, size_t k, size_t ldx, int8_t *q, float *d, int32_t *s);
void hush_matmul_q4_0_q8_0_rows8_avx2(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                      const uint8_t *packed, size_t n, const float *bias, float *y, size_t ldy);
void hush_matmul_q4_0_q8_0_avx2(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                const uint8_t *w, size_t n, const float *bias, float *y, size_t ldy);
void hush_pack_f16_panels_avx2(const float *w, size_t n, size_t k, uint16_t *out);
void hush_matmul_f32_f16p_avx2(const float *x, size_t m, size_t k, size_t ldx, const uint16_t *w, size_t n, float *y,
                               size_t ldy);

// AVX-512 F/BW/DQ/VL level (KernelsAVX512.c), with VNNI and VPOPCNTDQ variants chosen when present.
float hush_dot_f32_avx512(const float *a, const float *b, size_t n);
void hush_dot_f32_rows_avx512(const float *m, size_t rows, size_t dim, const float *q, float *out);
int32_t hush_dot_i8_avx512(const int8_t *a, const int8_t *b, size_t n);
void hush_dot_i8_rows_avx512(const int8_t *m, size_t rows, size_t dim, const int8_t *q, int32_t *out);
int32_t hush_dot_i8_avx512vnni(const int8_t *a, const int8_t *b, size_t n);
void hush_matmul_q4_0_q8_0_avx512vnni(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                      const uint8_t *w, size_t n, const float *bias, float *y, size_t ldy);
void hush_matmul_q4_0_q8_0_rows8_avx512vnni(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                            const uint8_t *packed, size_t n, const float *bias, float *y, size_t ldy);
void hush_dot_i8_rows_avx512vnni(const int8_t *m, size_t rows, size_t dim, const int8_t *q, int32_t *out);
uint32_t hush_hamming_avx512popcnt(const uint64_t *a, const uint64_t *b, size_t words);
void hush_hamming_rows_avx512popcnt(const uint64_t *m, size_t rows, size_t words, const uint64_t *q,
                                    uint32_t *out);
void hush_add_bias_f32_avx512(float *x, size_t rows, size_t cols, const float *bias);
void hush_bias_gelu_f32_avx512(float *x, size_t rows, size_t cols, const float *bias);
void hush_bias_residual_layernorm_f32_avx512(float *x, size_t rows, size_t cols, const float *bias,
                                             const float *residual, const float *gamma, const float *beta,
                                             float eps);
void hush_scaled_softmax_rows_f32_avx512(float *x, size_t rows, size_t cols, size_t valid, float scale);
#endif

#if defined(__aarch64__)
// NEON level (KernelsNEON.c).
float hush_dot_f32_neon(const float *a, const float *b, size_t n);
void hush_dot_f32_rows_neon(const float *m, size_t rows, size_t dim, const float *q, float *out);
int32_t hush_dot_i8_neon(const int8_t *a, const int8_t *b, size_t n);
void hush_dot_i8_rows_neon(const int8_t *m, size_t rows, size_t dim, const int8_t *q, int32_t *out);
uint32_t hush_hamming_neon(const uint64_t *a, const uint64_t *b, size_t words);
void hush_hamming_rows_neon(const uint64_t *m, size_t rows, size_t words, const uint64_t *q, uint32_t *out);
void hush_add_bias_f32_neon(float *x, size_t rows, size_t cols, const float *bias);
void hush_bias_gelu_f32_neon(float *x, size_t rows, size_t cols, const float *bias);
void hush_bias_residual_layernorm_f32_neon(float *x, size_t rows, size_t cols, const float *bias,
                                           const float *residual, const float *gamma, const float *beta, float eps);
void hush_scaled_softmax_rows_f32_neon(float *x, size_t rows, size_t cols, size_t valid, float scale);

// The quantised and binary16 paths (KernelsNEONQuant.c): plain NEON, DotProd (sdot) and I8MM (smmla) variants.
void hush_quantize_q8_0_neon(const float *x, size_t m, size_t k, size_t ldx, int8_t *q, float *d, int32_t *s);
void hush_dequantize_q4_0_neon(const uint8_t *blocks, size_t count, float *out);
int32_t hush_dot_u4i8_neon(const uint8_t *codes, const int8_t *query, size_t blocks);
int32_t hush_dot_u4i8_dotprod(const uint8_t *codes, const int8_t *query, size_t blocks);
int32_t hush_dot_i8_dotprod(const int8_t *a, const int8_t *b, size_t n);
void hush_dot_i8_rows_dotprod(const int8_t *m, size_t rows, size_t dim, const int8_t *q, int32_t *out);
void hush_matmul_q4_0_q8_0_neon(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                const uint8_t *w, size_t n, const float *bias, float *y, size_t ldy);
void hush_matmul_q4_0_q8_0_dotprod(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                   const uint8_t *w, size_t n, const float *bias, float *y, size_t ldy);
void hush_matmul_q4_0_q8_0_i8mm(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                const uint8_t *w, size_t n, const float *bias, float *y, size_t ldy);
void hush_pack_f16_panels_neon(const float *w, size_t n, size_t k, uint16_t *out);
void hush_matmul_f32_f16p_neon(const float *x, size_t m, size_t k, size_t ldx, const uint16_t *w, size_t n, float *y,
                               size_t ldy);
#endif

// MARK: - Shared constants of the vectorised erf and exp
//
// erf(a), 0 <= a < 1:  a * P(a^2), P below (degree 6 in a^2).
// erf(a), a >= 1:      1 - exp(-a^2) * R(1/a), R below (degree 8 in 1/a, fitted on [1, 4]). Past 4, where
//                      erfc < 1.6e-8, R is held at R(1/4); a is clamped to 10, where erfc is 0 in f32.
// Both fitted by least squares on Chebyshev nodes in double, rounding the coefficients to f32 one at a time and
// refitting the rest (numpy + scipy.special.erfcx as the target). exp(r) on |r| <= ln2/2: 1 + r + r^2 * E(r),
// E of degree 4, relative error 1.0e-8 before f32 rounding.
#define HUSH_ERF_P0 1.128379225730896f
#define HUSH_ERF_P1 -0.3761281669139862f
#define HUSH_ERF_P2 0.11285209655761719f
#define HUSH_ERF_P3 -0.026911651715636253f
#define HUSH_ERF_P4 0.005287239793688059f
#define HUSH_ERF_P5 -0.000881649146322161f
#define HUSH_ERF_P6 0.00010370662494096905f

#define HUSH_ERF_R0 0.0002749467676039785f
#define HUSH_ERF_R1 0.5589597225189209f
#define HUSH_ERF_R2 0.04260851442813873f
#define HUSH_ERF_R3 -0.4739537239074707f
#define HUSH_ERF_R4 0.5022019743919373f
#define HUSH_ERF_R5 -0.24921326339244843f
#define HUSH_ERF_R6 0.029916591942310333f
#define HUSH_ERF_R7 0.025658413767814636f
#define HUSH_ERF_R8 -0.008869617246091366f

/// Bytes per group of 8 rows and block of 32 columns in hush_q4_0_interleave_rows8's layout: 8 binary16 scales,
/// then 8 rows x 16 nibble bytes (as many as the 8 rows' Q4_0 blocks).
enum { hush_rows8_block_bytes = 8 * 2 + 8 * 16 };

#define HUSH_EXP_E0 0.5f
#define HUSH_EXP_E1 0.16666576266288757f
#define HUSH_EXP_E2 0.041666511446237564f
#define HUSH_EXP_E3 0.008363248780369759f
#define HUSH_EXP_E4 0.0013930501881986856f

#define HUSH_LOG2E 1.44269504088896341f
// ln 2 split so that n * HUSH_LN2_HI is exact for |n| < 256.
#define HUSH_LN2_HI 0.693145751953125f
#define HUSH_LN2_LO 1.428606820309417232e-6f
// expf underflows to subnormals below this; the vector exp returns 0 there (an absolute error below 1.2e-38).
#define HUSH_EXP_MIN -87.33654475f
#define HUSH_EXP_MAX 88.72283905f

#endif
