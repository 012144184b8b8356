// AVX2 + FMA kernels (dot products, the encoder's element-wise loops; its weight products are in
// KernelsAVX2Quant.c), and the scalar-popcnt Hamming kernels. Every function carries its own target attribute
// instead of a global -m flag, so this file builds for any x86-64; Dispatch.c calls these only on CPUs with AVX2,
// FMA, F16C and POPCNT. Float tails use vmaskmov loads and stores; int8 tails are scalar.
#if defined(__x86_64__)

#include "Kernels.h"
#include "KernelsX86.h"
#include <immintrin.h>
#include <math.h>
#include <string.h>

#define AVX2 __attribute__((target("avx2,fma,f16c")))
#define POPCNT __attribute__((target("popcnt")))

/// Lane masks for vmaskmov: loading 8 ints at `mask_table + 8 - n` enables the low n lanes (n <= 8).
static const int32_t mask_table[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
static inline AVX2 __m256i tail_mask(size_t n) { return _mm256_loadu_si256((const void *)(mask_table + 8 - n)); }

/// Stores the first n (below 8) lanes of v at p. Through a stack buffer: masked stores (vmaskmovps) are
/// microcoded and slow on AMD cores.
static inline AVX2 void store_first(float *p, size_t n, __m256 v) {
    float lanes[8];
    _mm256_storeu_ps(lanes, v);
    memcpy(p, lanes, n * sizeof(float));
}

static inline AVX2 double hsum_pd(__m256d v) {
    __m128d s = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
}

/// Lane i of the result is the sum of the lanes of v[i].
static inline AVX2 __m128 sum4(__m256 a, __m256 b, __m256 c, __m256 d) {
    __m256 h = _mm256_hadd_ps(_mm256_hadd_ps(a, b), _mm256_hadd_ps(c, d));
    return _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
}

// MARK: - f32 dot products

AVX2 float hush_dot_f32_avx2(const float *a, const float *b, size_t n) {
    __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps(), s2 = _mm256_setzero_ps(), s3 = _mm256_setzero_ps();
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), s0);
        s1 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 8), _mm256_loadu_ps(b + i + 8), s1);
        s2 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 16), _mm256_loadu_ps(b + i + 16), s2);
        s3 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 24), _mm256_loadu_ps(b + i + 24), s3);
    }
    for (; i + 8 <= n; i += 8) s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), s0);
    if (i < n) {
        __m256i k = tail_mask(n - i);
        s1 = _mm256_fmadd_ps(_mm256_maskload_ps(a + i, k), _mm256_maskload_ps(b + i, k), s1);
    }
    return hsum(_mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
}

// Four rows at a time share each query load, two accumulators per row: eight independent FMA chains.
AVX2 void hush_dot_f32_rows_avx2(const float *m, size_t rows, size_t dim, const float *q, float *out) {
    const size_t full16 = dim & ~(size_t)15, full8 = dim & ~(size_t)7;
    const __m256i k = tail_mask(dim - full8);
    size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        const float *p0 = m + r * dim, *p1 = p0 + dim, *p2 = p1 + dim, *p3 = p2 + dim;
        __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps(), a2 = _mm256_setzero_ps();
        __m256 a3 = _mm256_setzero_ps(), b0 = _mm256_setzero_ps(), b1 = _mm256_setzero_ps();
        __m256 b2 = _mm256_setzero_ps(), b3 = _mm256_setzero_ps();
        size_t c = 0;
        for (; c < full16; c += 16) {
            __m256 qa = _mm256_loadu_ps(q + c), qb = _mm256_loadu_ps(q + c + 8);
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(p0 + c), qa, a0);
            a1 = _mm256_fmadd_ps(_mm256_loadu_ps(p1 + c), qa, a1);
            a2 = _mm256_fmadd_ps(_mm256_loadu_ps(p2 + c), qa, a2);
            a3 = _mm256_fmadd_ps(_mm256_loadu_ps(p3 + c), qa, a3);
            b0 = _mm256_fmadd_ps(_mm256_loadu_ps(p0 + c + 8), qb, b0);
            b1 = _mm256_fmadd_ps(_mm256_loadu_ps(p1 + c + 8), qb, b1);
            b2 = _mm256_fmadd_ps(_mm256_loadu_ps(p2 + c + 8), qb, b2);
            b3 = _mm256_fmadd_ps(_mm256_loadu_ps(p3 + c + 8), qb, b3);
        }
        if (c < full8) {
            __m256 qa = _mm256_loadu_ps(q + c);
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(p0 + c), qa, a0);
            a1 = _mm256_fmadd_ps(_mm256_loadu_ps(p1 + c), qa, a1);
            a2 = _mm256_fmadd_ps(_mm256_loadu_ps(p2 + c), qa, a2);
            a3 = _mm256_fmadd_ps(_mm256_loadu_ps(p3 + c), qa, a3);
        }
        if (full8 < dim) {
            __m256 qb = _mm256_maskload_ps(q + full8, k);
            b0 = _mm256_fmadd_ps(_mm256_maskload_ps(p0 + full8, k), qb, b0);
            b1 = _mm256_fmadd_ps(_mm256_maskload_ps(p1 + full8, k), qb, b1);
            b2 = _mm256_fmadd_ps(_mm256_maskload_ps(p2 + full8, k), qb, b2);
            b3 = _mm256_fmadd_ps(_mm256_maskload_ps(p3 + full8, k), qb, b3);
        }
        _mm_storeu_ps(out + r, sum4(_mm256_add_ps(a0, b0), _mm256_add_ps(a1, b1), _mm256_add_ps(a2, b2),
                                    _mm256_add_ps(a3, b3)));
    }
    for (; r < rows; r++) out[r] = hush_dot_f32_avx2(m + r * dim, q, dim);
}

// MARK: - int8 dot products (sign-extend to int16, vpmaddwd into int32: exact)

static inline AVX2 __m256i widen_i8x16(const int8_t *p) { return _mm256_cvtepi8_epi16(_mm_loadu_si128((const void *)p)); }

static inline AVX2 int32_t hsum_epi32(__m256i v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

AVX2 int32_t hush_dot_i8_avx2(const int8_t *a, const int8_t *b, size_t n) {
    __m256i s0 = _mm256_setzero_si256(), s1 = _mm256_setzero_si256();
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(widen_i8x16(a + i), widen_i8x16(b + i)));
        s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(widen_i8x16(a + i + 16), widen_i8x16(b + i + 16)));
    }
    for (; i + 16 <= n; i += 16) s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(widen_i8x16(a + i), widen_i8x16(b + i)));
    uint32_t s = (uint32_t)hsum_epi32(_mm256_add_epi32(s0, s1));
    for (; i < n; i++) s += (uint32_t)((int32_t)a[i] * (int32_t)b[i]);
    return (int32_t)s;
}

AVX2 void hush_dot_i8_rows_avx2(const int8_t *m, size_t rows, size_t dim, const int8_t *q, int32_t *out) {
    const size_t full = dim & ~(size_t)15;
    size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        const int8_t *p0 = m + r * dim, *p1 = p0 + dim, *p2 = p1 + dim, *p3 = p2 + dim;
        __m256i s0 = _mm256_setzero_si256(), s1 = _mm256_setzero_si256();
        __m256i s2 = _mm256_setzero_si256(), s3 = _mm256_setzero_si256();
        for (size_t c = 0; c < full; c += 16) {
            __m256i qv = widen_i8x16(q + c);
            s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(widen_i8x16(p0 + c), qv));
            s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(widen_i8x16(p1 + c), qv));
            s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(widen_i8x16(p2 + c), qv));
            s3 = _mm256_add_epi32(s3, _mm256_madd_epi16(widen_i8x16(p3 + c), qv));
        }
        // Horizontal sums of four vectors at once.
        __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(s0, s1), _mm256_hadd_epi32(s2, s3));
        __m128i sums = _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
        uint32_t t[4];
        _mm_storeu_si128((void *)t, sums);
        for (size_t c = full; c < dim; c++) {
            int32_t qc = q[c];
            t[0] += (uint32_t)(p0[c] * qc);
            t[1] += (uint32_t)(p1[c] * qc);
            t[2] += (uint32_t)(p2[c] * qc);
            t[3] += (uint32_t)(p3[c] * qc);
        }
        for (int i = 0; i < 4; i++) out[r + (size_t)i] = (int32_t)t[i];
    }
    for (; r < rows; r++) out[r] = hush_dot_i8_avx2(m + r * dim, q, dim);
}

// MARK: - 4-bit codes against an int8 query

// vpmaddubsw multiplies the unsigned nibbles (0...15) by the signed query bytes and adds neighbouring pairs into
// int16 (at most 2 x 15 x 127 per pair, so the two halves' sum, 7,620, cannot saturate); vpmaddwd by ones widens
// to int32.
AVX2 int32_t hush_dot_u4i8_avx2(const uint8_t *codes, const int8_t *query, size_t blocks) {
    const __m256i nibble = _mm256_set1_epi8(0x0F), ones = _mm256_set1_epi16(1);
    __m256i s = _mm256_setzero_si256();
    for (size_t b = 0; b < blocks; b++) {
        const __m256i c = _mm256_loadu_si256((const void *)(codes + 32 * b));
        const __m256i low = _mm256_and_si256(c, nibble);
        const __m256i high = _mm256_and_si256(_mm256_srli_epi16(c, 4), nibble);
        const __m256i q0 = _mm256_loadu_si256((const void *)(query + 64 * b));
        const __m256i q1 = _mm256_loadu_si256((const void *)(query + 64 * b + 32));
        const __m256i pairs = _mm256_add_epi16(_mm256_maddubs_epi16(low, q0), _mm256_maddubs_epi16(high, q1));
        s = _mm256_add_epi32(s, _mm256_madd_epi16(pairs, ones));
    }
    return hsum_epi32(s);
}

// MARK: - Hamming distance (scalar popcnt, four accumulators)

static inline POPCNT uint32_t hamming_popcnt(const uint64_t *a, const uint64_t *b, size_t words) {
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    size_t i = 0;
    for (; i + 4 <= words; i += 4) {
        s0 += (uint64_t)__builtin_popcountll(a[i] ^ b[i]);
        s1 += (uint64_t)__builtin_popcountll(a[i + 1] ^ b[i + 1]);
        s2 += (uint64_t)__builtin_popcountll(a[i + 2] ^ b[i + 2]);
        s3 += (uint64_t)__builtin_popcountll(a[i + 3] ^ b[i + 3]);
    }
    for (; i < words; i++) s0 += (uint64_t)__builtin_popcountll(a[i] ^ b[i]);
    return (uint32_t)(s0 + s1 + s2 + s3);
}

POPCNT uint32_t hush_hamming_popcnt(const uint64_t *a, const uint64_t *b, size_t words) {
    return hamming_popcnt(a, b, words);
}

POPCNT void hush_hamming_rows_popcnt(const uint64_t *m, size_t rows, size_t words, const uint64_t *q,
                                     uint32_t *out) {
    for (size_t r = 0; r < rows; r++) out[r] = hamming_popcnt(m + r * words, q, words);
}

// MARK: - Encoder loops

AVX2 void hush_add_bias_f32_avx2(float *x, size_t rows, size_t cols, const float *bias) {
    const size_t full = cols & ~(size_t)7;
    const __m256i k = tail_mask(cols - full);
    for (size_t r = 0; r < rows; r++) {
        float *row = x + r * cols;
        for (size_t c = 0; c < full; c += 8)
            _mm256_storeu_ps(row + c, _mm256_add_ps(_mm256_loadu_ps(row + c), _mm256_loadu_ps(bias + c)));
        if (full < cols)
            store_first(row + full, cols - full, _mm256_add_ps(_mm256_maskload_ps(row + full, k),
                                                             _mm256_maskload_ps(bias + full, k)));
    }
}

/// exp(x) to about 1 ulp for x <= 88; 0 below HUSH_EXP_MIN (where expf is subnormal), NaN stays NaN.
static inline AVX2 __m256 exp256(__m256 x) {
    __m256 underflow = _mm256_cmp_ps(x, _mm256_set1_ps(HUSH_EXP_MIN), _CMP_LT_OQ);
    x = _mm256_min_ps(_mm256_set1_ps(88.0f), _mm256_max_ps(_mm256_set1_ps(HUSH_EXP_MIN), x));
    __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(HUSH_LOG2E)),
                               _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(HUSH_LN2_HI), x);
    r = _mm256_fnmadd_ps(n, _mm256_set1_ps(HUSH_LN2_LO), r);
    __m256 p = _mm256_set1_ps(HUSH_EXP_E4);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(HUSH_EXP_E3));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(HUSH_EXP_E2));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(HUSH_EXP_E1));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(HUSH_EXP_E0));
    p = _mm256_add_ps(_mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r), _mm256_set1_ps(1.0f));
    // 2^n for n in [-126, 127], built in the exponent field.
    __m256i bits = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    return _mm256_andnot_ps(underflow, _mm256_mul_ps(p, _mm256_castsi256_ps(bits)));
}

/// 1 + erf(z), computed without cancellation for negative z (see Kernels.h for the approximation).
static inline AVX2 __m256 one_plus_erf256(__m256 z) {
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256 a = _mm256_min_ps(_mm256_andnot_ps(sign, z), _mm256_set1_ps(10.0f));
    __m256 a2 = _mm256_mul_ps(a, a);
    __m256 p = _mm256_set1_ps(HUSH_ERF_P6);
    p = _mm256_fmadd_ps(p, a2, _mm256_set1_ps(HUSH_ERF_P5));
    p = _mm256_fmadd_ps(p, a2, _mm256_set1_ps(HUSH_ERF_P4));
    p = _mm256_fmadd_ps(p, a2, _mm256_set1_ps(HUSH_ERF_P3));
    p = _mm256_fmadd_ps(p, a2, _mm256_set1_ps(HUSH_ERF_P2));
    p = _mm256_fmadd_ps(p, a2, _mm256_set1_ps(HUSH_ERF_P1));
    p = _mm256_fmadd_ps(p, a2, _mm256_set1_ps(HUSH_ERF_P0));
    __m256 small = _mm256_mul_ps(a, p);
    __m256 al = _mm256_max_ps(a, one);
    __m256 hi = _mm256_mul_ps(al, al);
    __m256 lo = _mm256_fmsub_ps(al, al, hi);
    __m256 t = _mm256_div_ps(one, _mm256_min_ps(al, _mm256_set1_ps(4.0f)));
    __m256 rr = _mm256_set1_ps(HUSH_ERF_R8);
    rr = _mm256_fmadd_ps(rr, t, _mm256_set1_ps(HUSH_ERF_R7));
    rr = _mm256_fmadd_ps(rr, t, _mm256_set1_ps(HUSH_ERF_R6));
    rr = _mm256_fmadd_ps(rr, t, _mm256_set1_ps(HUSH_ERF_R5));
    rr = _mm256_fmadd_ps(rr, t, _mm256_set1_ps(HUSH_ERF_R4));
    rr = _mm256_fmadd_ps(rr, t, _mm256_set1_ps(HUSH_ERF_R3));
    rr = _mm256_fmadd_ps(rr, t, _mm256_set1_ps(HUSH_ERF_R2));
    rr = _mm256_fmadd_ps(rr, t, _mm256_set1_ps(HUSH_ERF_R1));
    rr = _mm256_fmadd_ps(rr, t, _mm256_set1_ps(HUSH_ERF_R0));
    __m256 e = exp256(_mm256_xor_ps(hi, sign));
    e = _mm256_fnmadd_ps(e, lo, e);
    __m256 erfc = _mm256_mul_ps(e, rr);
    __m256 negative = _mm256_cmp_ps(z, _mm256_setzero_ps(), _CMP_LT_OQ);
    __m256 is_small = _mm256_cmp_ps(a, one, _CMP_LT_OQ);
    __m256 from_small = _mm256_add_ps(one, _mm256_xor_ps(small, _mm256_and_ps(negative, sign)));
    __m256 from_large = _mm256_blendv_ps(_mm256_sub_ps(_mm256_set1_ps(2.0f), erfc), erfc, negative);
    return _mm256_blendv_ps(from_large, from_small, is_small);
}

static inline AVX2 __m256 gelu256(__m256 v) {
    __m256 ope = one_plus_erf256(_mm256_mul_ps(v, _mm256_set1_ps(0.70710678118654752f)));
    return _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), v), ope);
}

AVX2 void hush_bias_gelu_f32_avx2(float *x, size_t rows, size_t cols, const float *bias) {
    const size_t full = cols & ~(size_t)7;
    const __m256i k = tail_mask(cols - full);
    for (size_t r = 0; r < rows; r++) {
        float *row = x + r * cols;
        for (size_t c = 0; c < full; c += 8)
            _mm256_storeu_ps(row + c, gelu256(_mm256_add_ps(_mm256_loadu_ps(row + c),
                                                            bias ? _mm256_loadu_ps(bias + c) : _mm256_setzero_ps())));
        if (full < cols)
            store_first(row + full, cols - full,
                        gelu256(_mm256_add_ps(_mm256_maskload_ps(row + full, k),
                                              bias ? _mm256_maskload_ps(bias + full, k) : _mm256_setzero_ps())));
    }
}

// Mean and variance are accumulated in double (as the reference does), so a large common offset costs nothing.
AVX2 void hush_bias_residual_layernorm_f32_avx2(float *x, size_t rows, size_t cols, const float *bias,
                                                const float *residual, const float *gamma, const float *beta,
                                                float eps) {
    if (cols == 0) return;
    const size_t full = cols & ~(size_t)7;
    for (size_t r = 0; r < rows; r++) {
        float *row = x + r * cols;
        const float *res = residual ? residual + r * cols : NULL;
        __m256d s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd();
        for (size_t c = 0; c < cols; c += 8) {
            const size_t n = cols - c >= 8 ? 8 : cols - c;
            __m256i k = tail_mask(n);  // lanes past the row load as 0 and add nothing
            __m256 v = _mm256_maskload_ps(row + c, k);
            if (bias) v = _mm256_add_ps(v, _mm256_maskload_ps(bias + c, k));
            if (res) v = _mm256_add_ps(v, _mm256_maskload_ps(res + c, k));
            if (n == 8) {
                _mm256_storeu_ps(row + c, v);
            } else {
                store_first(row + c, n, v);
            }
            s0 = _mm256_add_pd(s0, _mm256_cvtps_pd(_mm256_castps256_ps128(v)));
            s1 = _mm256_add_pd(s1, _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)));
        }
        const double mean = hsum_pd(_mm256_add_pd(s0, s1)) / (double)cols;
        const __m256d meanv = _mm256_set1_pd(mean);
        __m256d q0 = _mm256_setzero_pd(), q1 = _mm256_setzero_pd();
        for (size_t c = 0; c < full; c += 8) {
            __m256 v = _mm256_loadu_ps(row + c);
            __m256d d0 = _mm256_sub_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(v)), meanv);
            __m256d d1 = _mm256_sub_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)), meanv);
            q0 = _mm256_fmadd_pd(d0, d0, q0);
            q1 = _mm256_fmadd_pd(d1, d1, q1);
        }
        double var = hsum_pd(_mm256_add_pd(q0, q1));
        for (size_t c = full; c < cols; c++) {
            double d = (double)row[c] - mean;
            var += d * d;
        }
        var /= (double)cols;
        const __m256 inv = _mm256_set1_ps((float)(1.0 / sqrt(var + eps)));
        const __m256 meanf = _mm256_set1_ps((float)mean);
        for (size_t c = 0; c < cols; c += 8) {
            const size_t n = cols - c >= 8 ? 8 : cols - c;
            __m256i k = tail_mask(n);
            __m256 v = _mm256_mul_ps(_mm256_sub_ps(_mm256_maskload_ps(row + c, k), meanf), inv);
            v = _mm256_fmadd_ps(v, _mm256_maskload_ps(gamma + c, k), _mm256_maskload_ps(beta + c, k));
            if (n == 8) {
                _mm256_storeu_ps(row + c, v);
            } else {
                store_first(row + c, n, v);
            }
        }
    }
}

AVX2 void hush_scaled_softmax_rows_f32_avx2(float *x, size_t rows, size_t cols, size_t valid, float scale) {
    if (valid > cols) valid = cols;
    const __m256 sv = _mm256_set1_ps(scale);
    const size_t full = valid & ~(size_t)7;
    const __m256i k = tail_mask(valid - full);
    for (size_t r = 0; r < rows; r++) {
        float *row = x + r * cols;
        __m256 mx = _mm256_set1_ps(-INFINITY);
        for (size_t c = 0; c < full; c += 8) {
            __m256 v = _mm256_mul_ps(_mm256_loadu_ps(row + c), sv);
            _mm256_storeu_ps(row + c, v);
            mx = _mm256_max_ps(mx, v);
        }
        float m = -INFINITY;
        {
            __m128 h = _mm_max_ps(_mm256_castps256_ps128(mx), _mm256_extractf128_ps(mx, 1));
            h = _mm_max_ps(h, _mm_movehl_ps(h, h));
            h = _mm_max_ss(h, _mm_movehdup_ps(h));
            m = _mm_cvtss_f32(h);
        }
        for (size_t c = full; c < valid; c++) {
            row[c] *= scale;
            if (row[c] > m) m = row[c];
        }
        const __m256 mv = _mm256_set1_ps(m);
        __m256 sum = _mm256_setzero_ps();
        for (size_t c = 0; c < full; c += 8) {
            __m256 e = exp256(_mm256_sub_ps(_mm256_loadu_ps(row + c), mv));
            _mm256_storeu_ps(row + c, e);
            sum = _mm256_add_ps(sum, e);
        }
        if (full < valid) {
            __m256 e = exp256(_mm256_sub_ps(_mm256_maskload_ps(row + full, k), mv));
            e = _mm256_and_ps(e, _mm256_castsi256_ps(k));
            store_first(row + full, valid - full, e);
            sum = _mm256_add_ps(sum, e);
        }
        const float total = hsum(sum);
        const __m256 inv = _mm256_set1_ps(total > 0 ? 1.0f / total : 0.0f);
        for (size_t c = 0; c < full; c += 8) _mm256_storeu_ps(row + c, _mm256_mul_ps(_mm256_loadu_ps(row + c), inv));
        if (full < valid)
            store_first(row + full, valid - full, _mm256_mul_ps(_mm256_maskload_ps(row + full, k), inv));
        for (size_t c = valid; c < cols; c++) row[c] = 0;
    }
}

#endif
