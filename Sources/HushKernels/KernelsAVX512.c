// AVX-512 kernels (F/BW/DQ/VL, with VNNI and VPOPCNTDQ variants). Every function carries its own target
// attribute instead of a global -m flag, so this file builds for any x86-64; Dispatch.c calls these only on CPUs
// (and operating systems) that support them. Tails are handled with masked loads and stores.
#if defined(__x86_64__)

#include "Kernels.h"
#include "KernelsX86.h"
#include <immintrin.h>
#include <math.h>

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")))
#define AVX512_VNNI __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vnni,avx2,fma")))
#define AVX512_POPCNT __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vpopcntdq,avx2")))

/// Mask of the low `n` lanes, n < 16.
static inline __mmask16 mask16(size_t n) { return (__mmask16)((1u << n) - 1u); }
/// Mask of the low `n` lanes, n < 64.
static inline __mmask64 mask64(size_t n) { return (__mmask64)((1ull << n) - 1ull); }

// MARK: - f32 dot products

AVX512 float hush_dot_f32_avx512(const float *a, const float *b, size_t n) {
    __m512 s0 = _mm512_setzero_ps(), s1 = _mm512_setzero_ps(), s2 = _mm512_setzero_ps(), s3 = _mm512_setzero_ps();
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        s0 = _mm512_fmadd_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i), s0);
        s1 = _mm512_fmadd_ps(_mm512_loadu_ps(a + i + 16), _mm512_loadu_ps(b + i + 16), s1);
        s2 = _mm512_fmadd_ps(_mm512_loadu_ps(a + i + 32), _mm512_loadu_ps(b + i + 32), s2);
        s3 = _mm512_fmadd_ps(_mm512_loadu_ps(a + i + 48), _mm512_loadu_ps(b + i + 48), s3);
    }
    for (; i + 16 <= n; i += 16) s0 = _mm512_fmadd_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i), s0);
    if (i < n) {
        __mmask16 k = mask16(n - i);
        s1 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(k, a + i), _mm512_maskz_loadu_ps(k, b + i), s1);
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(s0, s1), _mm512_add_ps(s2, s3)));
}

/// Sums each of eight vectors: lane i of the result is the sum of the 16 lanes of v[i].
static inline AVX512 __m256 sum8(__m512 v0, __m512 v1, __m512 v2, __m512 v3, __m512 v4, __m512 v5, __m512 v6,
                                 __m512 v7) {
#define HUSH_FOLD(v) _mm256_add_ps(_mm512_castps512_ps256(v), _mm512_extractf32x8_ps(v, 1))
    __m256 h01 = _mm256_hadd_ps(HUSH_FOLD(v0), HUSH_FOLD(v1));
    __m256 h23 = _mm256_hadd_ps(HUSH_FOLD(v2), HUSH_FOLD(v3));
    __m256 h45 = _mm256_hadd_ps(HUSH_FOLD(v4), HUSH_FOLD(v5));
    __m256 h67 = _mm256_hadd_ps(HUSH_FOLD(v6), HUSH_FOLD(v7));
#undef HUSH_FOLD
    // Each 128-bit half of h0123 holds partial sums of v0..v3; likewise h4567.
    __m256 h0123 = _mm256_hadd_ps(h01, h23);
    __m256 h4567 = _mm256_hadd_ps(h45, h67);
    return _mm256_add_ps(_mm256_permute2f128_ps(h0123, h4567, 0x20), _mm256_permute2f128_ps(h0123, h4567, 0x31));
}

// Eight rows at a time share each query load; one accumulator per row gives eight independent FMA chains.
AVX512 void hush_dot_f32_rows_avx512(const float *m, size_t rows, size_t dim, const float *q, float *out) {
    const size_t full = dim & ~(size_t)15;
    const __mmask16 k = mask16(dim - full);
    size_t r = 0;
    for (; r + 8 <= rows; r += 8) {
        const float *p0 = m + r * dim, *p1 = p0 + dim, *p2 = p1 + dim, *p3 = p2 + dim;
        const float *p4 = p3 + dim, *p5 = p4 + dim, *p6 = p5 + dim, *p7 = p6 + dim;
        __m512 s0 = _mm512_setzero_ps(), s1 = _mm512_setzero_ps(), s2 = _mm512_setzero_ps();
        __m512 s3 = _mm512_setzero_ps(), s4 = _mm512_setzero_ps(), s5 = _mm512_setzero_ps();
        __m512 s6 = _mm512_setzero_ps(), s7 = _mm512_setzero_ps();
        for (size_t c = 0; c < full; c += 16) {
            __m512 qv = _mm512_loadu_ps(q + c);
            s0 = _mm512_fmadd_ps(_mm512_loadu_ps(p0 + c), qv, s0);
            s1 = _mm512_fmadd_ps(_mm512_loadu_ps(p1 + c), qv, s1);
            s2 = _mm512_fmadd_ps(_mm512_loadu_ps(p2 + c), qv, s2);
            s3 = _mm512_fmadd_ps(_mm512_loadu_ps(p3 + c), qv, s3);
            s4 = _mm512_fmadd_ps(_mm512_loadu_ps(p4 + c), qv, s4);
            s5 = _mm512_fmadd_ps(_mm512_loadu_ps(p5 + c), qv, s5);
            s6 = _mm512_fmadd_ps(_mm512_loadu_ps(p6 + c), qv, s6);
            s7 = _mm512_fmadd_ps(_mm512_loadu_ps(p7 + c), qv, s7);
        }
        if (k) {
            __m512 qv = _mm512_maskz_loadu_ps(k, q + full);
            s0 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(k, p0 + full), qv, s0);
            s1 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(k, p1 + full), qv, s1);
            s2 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(k, p2 + full), qv, s2);
            s3 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(k, p3 + full), qv, s3);
            s4 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(k, p4 + full), qv, s4);
            s5 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(k, p5 + full), qv, s5);
            s6 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(k, p6 + full), qv, s6);
            s7 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(k, p7 + full), qv, s7);
        }
        _mm256_storeu_ps(out + r, sum8(s0, s1, s2, s3, s4, s5, s6, s7));
    }
    for (; r < rows; r++) out[r] = hush_dot_f32_avx512(m + r * dim, q, dim);
}

// MARK: - int8 dot products

/// Sums each of four int32 vectors into one lane of the result.
static inline AVX512 __m128i sum4_epi32(__m512i a, __m512i b, __m512i c, __m512i d) {
#define HUSH_FOLD(v)                                                                                               \
    _mm_add_epi32(                                                                                                 \
        _mm_add_epi32(_mm512_castsi512_si128(v), _mm512_extracti32x4_epi32(v, 1)),                                 \
        _mm_add_epi32(_mm512_extracti32x4_epi32(v, 2), _mm512_extracti32x4_epi32(v, 3)))
    __m128i ab = _mm_hadd_epi32(HUSH_FOLD(a), HUSH_FOLD(b));
    __m128i cd = _mm_hadd_epi32(HUSH_FOLD(c), HUSH_FOLD(d));
#undef HUSH_FOLD
    return _mm_hadd_epi32(ab, cd);
}

/// Sign-extends 32 int8 values to int16.
static inline AVX512 __m512i widen_i8x32(const int8_t *p) { return _mm512_cvtepi8_epi16(_mm256_loadu_si256((const void *)p)); }
static inline AVX512 __m512i widen_i8x32_masked(__mmask32 k, const int8_t *p) {
    return _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(k, p));
}

// Without VNNI: sign-extend to int16 and multiply-add pairs into int32 (vpmaddwd), exact.
AVX512 int32_t hush_dot_i8_avx512(const int8_t *a, const int8_t *b, size_t n) {
    __m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512();
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        s0 = _mm512_add_epi32(s0, _mm512_madd_epi16(widen_i8x32(a + i), widen_i8x32(b + i)));
        s1 = _mm512_add_epi32(s1, _mm512_madd_epi16(widen_i8x32(a + i + 32), widen_i8x32(b + i + 32)));
    }
    for (; i + 32 <= n; i += 32) s0 = _mm512_add_epi32(s0, _mm512_madd_epi16(widen_i8x32(a + i), widen_i8x32(b + i)));
    if (i < n) {
        __mmask32 k = (__mmask32)mask64(n - i);
        s1 = _mm512_add_epi32(s1, _mm512_madd_epi16(widen_i8x32_masked(k, a + i), widen_i8x32_masked(k, b + i)));
    }
    return _mm512_reduce_add_epi32(_mm512_add_epi32(s0, s1));
}

AVX512 void hush_dot_i8_rows_avx512(const int8_t *m, size_t rows, size_t dim, const int8_t *q, int32_t *out) {
    const size_t full = dim & ~(size_t)31;
    const __mmask32 k = (__mmask32)mask64(dim - full);
    size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        const int8_t *p0 = m + r * dim, *p1 = p0 + dim, *p2 = p1 + dim, *p3 = p2 + dim;
        __m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512();
        __m512i s2 = _mm512_setzero_si512(), s3 = _mm512_setzero_si512();
        for (size_t c = 0; c < full; c += 32) {
            __m512i qv = widen_i8x32(q + c);
            s0 = _mm512_add_epi32(s0, _mm512_madd_epi16(widen_i8x32(p0 + c), qv));
            s1 = _mm512_add_epi32(s1, _mm512_madd_epi16(widen_i8x32(p1 + c), qv));
            s2 = _mm512_add_epi32(s2, _mm512_madd_epi16(widen_i8x32(p2 + c), qv));
            s3 = _mm512_add_epi32(s3, _mm512_madd_epi16(widen_i8x32(p3 + c), qv));
        }
        if (k) {
            __m512i qv = widen_i8x32_masked(k, q + full);
            s0 = _mm512_add_epi32(s0, _mm512_madd_epi16(widen_i8x32_masked(k, p0 + full), qv));
            s1 = _mm512_add_epi32(s1, _mm512_madd_epi16(widen_i8x32_masked(k, p1 + full), qv));
            s2 = _mm512_add_epi32(s2, _mm512_madd_epi16(widen_i8x32_masked(k, p2 + full), qv));
            s3 = _mm512_add_epi32(s3, _mm512_madd_epi16(widen_i8x32_masked(k, p3 + full), qv));
        }
        _mm_storeu_si128((void *)(out + r), sum4_epi32(s0, s1, s2, s3));
    }
    for (; r < rows; r++) out[r] = hush_dot_i8_avx512(m + r * dim, q, dim);
}

// With VNNI: vpdpbusd multiplies unsigned by signed bytes. Flipping the top bit of a maps it to a + 128 as an
// unsigned byte, so the sum is dot(a, b) + 128 * sum(b); sum(b) comes from a second vpdpbusd against ones.
// Four products of at most 255 * 128 per lane never saturate (vpdpbusd does not saturate anyway): exact.
AVX512_VNNI int32_t hush_dot_i8_avx512vnni(const int8_t *a, const int8_t *b, size_t n) {
    const __m512i flip = _mm512_set1_epi8((char)0x80), ones = _mm512_set1_epi8(1);
    __m512i s = _mm512_setzero_si512(), sb = _mm512_setzero_si512();
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m512i bv = _mm512_loadu_si512(b + i);
        s = _mm512_dpbusd_epi32(s, _mm512_xor_si512(_mm512_loadu_si512(a + i), flip), bv);
        sb = _mm512_dpbusd_epi32(sb, ones, bv);
    }
    if (i < n) {
        __mmask64 k = mask64(n - i);
        __m512i bv = _mm512_maskz_loadu_epi8(k, b + i);  // zero past the end, so those lanes add nothing
        s = _mm512_dpbusd_epi32(s, _mm512_xor_si512(_mm512_maskz_loadu_epi8(k, a + i), flip), bv);
        sb = _mm512_dpbusd_epi32(sb, ones, bv);
    }
    uint32_t biased = (uint32_t)_mm512_reduce_add_epi32(s), bsum = (uint32_t)_mm512_reduce_add_epi32(sb);
    return (int32_t)(biased - 128u * bsum);
}

AVX512_VNNI void hush_dot_i8_rows_avx512vnni(const int8_t *m, size_t rows, size_t dim, const int8_t *q,
                                             int32_t *out) {
    const __m512i flip = _mm512_set1_epi8((char)0x80);
    const size_t full = dim & ~(size_t)63;
    const __mmask64 k = mask64(dim - full);
    // 128 * sum(q), subtracted from every row's biased sum.
    int32_t qsum = 0;
    for (size_t c = 0; c < dim; c++) qsum += q[c];
    const __m128i correction = _mm_set1_epi32((int32_t)(128u * (uint32_t)qsum));
    const size_t ahead = 16 * dim;
    size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        const int8_t *p0 = m + r * dim, *p1 = p0 + dim, *p2 = p1 + dim, *p3 = p2 + dim;
        __m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512();
        __m512i s2 = _mm512_setzero_si512(), s3 = _mm512_setzero_si512();
        for (size_t c = 0; c < full; c += 64) {
            // The loop waits on memory at scale (a cached block runs ~4x faster): prefetching the same lines
            // 16 rows ahead took 10-15 % off a 1M x 384 scan on the benchmark machine.
            _mm_prefetch((const char *)(p0 + ahead + c), _MM_HINT_T0);
            _mm_prefetch((const char *)(p1 + ahead + c), _MM_HINT_T0);
            _mm_prefetch((const char *)(p2 + ahead + c), _MM_HINT_T0);
            _mm_prefetch((const char *)(p3 + ahead + c), _MM_HINT_T0);
            __m512i qv = _mm512_loadu_si512(q + c);
            s0 = _mm512_dpbusd_epi32(s0, _mm512_xor_si512(_mm512_loadu_si512(p0 + c), flip), qv);
            s1 = _mm512_dpbusd_epi32(s1, _mm512_xor_si512(_mm512_loadu_si512(p1 + c), flip), qv);
            s2 = _mm512_dpbusd_epi32(s2, _mm512_xor_si512(_mm512_loadu_si512(p2 + c), flip), qv);
            s3 = _mm512_dpbusd_epi32(s3, _mm512_xor_si512(_mm512_loadu_si512(p3 + c), flip), qv);
        }
        if (k) {
            __m512i qv = _mm512_maskz_loadu_epi8(k, q + full);
            s0 = _mm512_dpbusd_epi32(s0, _mm512_xor_si512(_mm512_maskz_loadu_epi8(k, p0 + full), flip), qv);
            s1 = _mm512_dpbusd_epi32(s1, _mm512_xor_si512(_mm512_maskz_loadu_epi8(k, p1 + full), flip), qv);
            s2 = _mm512_dpbusd_epi32(s2, _mm512_xor_si512(_mm512_maskz_loadu_epi8(k, p2 + full), flip), qv);
            s3 = _mm512_dpbusd_epi32(s3, _mm512_xor_si512(_mm512_maskz_loadu_epi8(k, p3 + full), flip), qv);
        }
        _mm_storeu_si128((void *)(out + r), _mm_sub_epi32(sum4_epi32(s0, s1, s2, s3), correction));
    }
    for (; r < rows; r++) out[r] = hush_dot_i8_avx512vnni(m + r * dim, q, dim);
}

// MARK: - Hamming distance (VPOPCNTDQ)

static inline AVX512_POPCNT uint32_t hamming_popcnt512(const uint64_t *a, const uint64_t *b, size_t words) {
    __m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512();
    size_t i = 0;
    for (; i + 16 <= words; i += 16) {
        s0 = _mm512_add_epi64(s0, _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512(a + i),
                                                                         _mm512_loadu_si512(b + i))));
        s1 = _mm512_add_epi64(s1, _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512(a + i + 8),
                                                                         _mm512_loadu_si512(b + i + 8))));
    }
    for (; i + 8 <= words; i += 8)
        s0 = _mm512_add_epi64(
            s0, _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512(a + i), _mm512_loadu_si512(b + i))));
    if (i < words) {
        __mmask8 k = (__mmask8)mask16(words - i);
        s1 = _mm512_add_epi64(s1, _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_maskz_loadu_epi64(k, a + i),
                                                                         _mm512_maskz_loadu_epi64(k, b + i))));
    }
    return (uint32_t)_mm512_reduce_add_epi64(_mm512_add_epi64(s0, s1));
}

AVX512_POPCNT uint32_t hush_hamming_avx512popcnt(const uint64_t *a, const uint64_t *b, size_t words) {
    return hamming_popcnt512(a, b, words);
}

AVX512_POPCNT void hush_hamming_rows_avx512popcnt(const uint64_t *m, size_t rows, size_t words, const uint64_t *q,
                                                  uint32_t *out) {
    // Eight consecutive rows are 8 x words contiguous words, that is `words` full vectors: XOR them with the
    // query repeated eight times, count bits per word, then add each row's `words` counts. No masked loads and
    // no horizontal reduction per row (codes of 384 bits are 6 words, less than one vector).
    enum { max_words = 32 };
    size_t r = 0;
    if (words <= max_words) {
        uint64_t tiled[8 * max_words];
        uint64_t counts[8 * max_words];
        for (size_t i = 0; i < 8 * words; i++) tiled[i] = q[i % words];
        for (; r + 8 <= rows; r += 8) {
            const uint64_t *block = m + r * words;
            for (size_t j = 0; j < words; j++) {
                __m512i x = _mm512_xor_si512(_mm512_loadu_si512(block + 8 * j), _mm512_loadu_si512(tiled + 8 * j));
                _mm512_storeu_si512(counts + 8 * j, _mm512_popcnt_epi64(x));
            }
            for (size_t i = 0; i < 8; i++) {
                uint64_t sum = 0;
                for (size_t j = 0; j < words; j++) sum += counts[i * words + j];
                out[r + i] = (uint32_t)sum;
            }
        }
    }
    for (; r < rows; r++) out[r] = hamming_popcnt512(m + r * words, q, words);
}

// MARK: - Encoder loops

AVX512 void hush_add_bias_f32_avx512(float *x, size_t rows, size_t cols, const float *bias) {
    const size_t full = cols & ~(size_t)15;
    const __mmask16 k = mask16(cols - full);
    for (size_t r = 0; r < rows; r++) {
        float *row = x + r * cols;
        for (size_t c = 0; c < full; c += 16)
            _mm512_storeu_ps(row + c, _mm512_add_ps(_mm512_loadu_ps(row + c), _mm512_loadu_ps(bias + c)));
        if (k)
            _mm512_mask_storeu_ps(row + full, k, _mm512_add_ps(_mm512_maskz_loadu_ps(k, row + full),
                                                               _mm512_maskz_loadu_ps(k, bias + full)));
    }
}

/// exp(x) to about 1 ulp; 0 below about -103.9, +inf above 88.7, NaN stays NaN.
static inline AVX512 __m512 exp512(__m512 x) {
    x = _mm512_min_ps(_mm512_set1_ps(89.0f), _mm512_max_ps(_mm512_set1_ps(-104.0f), x));
    __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(HUSH_LOG2E)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(HUSH_LN2_HI), x);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(HUSH_LN2_LO), r);
    __m512 p = _mm512_set1_ps(HUSH_EXP_E4);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(HUSH_EXP_E3));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(HUSH_EXP_E2));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(HUSH_EXP_E1));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(HUSH_EXP_E0));
    p = _mm512_add_ps(_mm512_fmadd_ps(p, _mm512_mul_ps(r, r), r), _mm512_set1_ps(1.0f));
    return _mm512_scalef_ps(p, n);  // p * 2^n, rounding to subnormals or 0 and overflowing to inf as needed
}

/// 1 + erf(z), computed without cancellation for negative z.
static inline AVX512 __m512 one_plus_erf512(__m512 z) {
    const __m512 one = _mm512_set1_ps(1.0f);
    __m512 a = _mm512_min_ps(_mm512_abs_ps(z), _mm512_set1_ps(10.0f));  // erfc(10) ~ 2e-45: 0 in f32
    // |z| < 1: erf = a * P(a^2)
    __m512 a2 = _mm512_mul_ps(a, a);
    __m512 p = _mm512_set1_ps(HUSH_ERF_P6);
    p = _mm512_fmadd_ps(p, a2, _mm512_set1_ps(HUSH_ERF_P5));
    p = _mm512_fmadd_ps(p, a2, _mm512_set1_ps(HUSH_ERF_P4));
    p = _mm512_fmadd_ps(p, a2, _mm512_set1_ps(HUSH_ERF_P3));
    p = _mm512_fmadd_ps(p, a2, _mm512_set1_ps(HUSH_ERF_P2));
    p = _mm512_fmadd_ps(p, a2, _mm512_set1_ps(HUSH_ERF_P1));
    p = _mm512_fmadd_ps(p, a2, _mm512_set1_ps(HUSH_ERF_P0));
    __m512 small = _mm512_mul_ps(a, p);
    // |z| >= 1: erfc = exp(-a^2) * R(1/a), with a^2 split into hi + lo so exp sees it exactly. Past 4 (where
    // erfc < 1.6e-8) R is held at R(1/4): the relative error that leaves in erfc is harmless in absolute terms.
    __m512 al = _mm512_max_ps(a, one);
    __m512 hi = _mm512_mul_ps(al, al);
    __m512 lo = _mm512_fmsub_ps(al, al, hi);
    __m512 t = _mm512_div_ps(one, _mm512_min_ps(al, _mm512_set1_ps(4.0f)));  // R is fitted on [1, 4]
    __m512 rr = _mm512_set1_ps(HUSH_ERF_R8);
    rr = _mm512_fmadd_ps(rr, t, _mm512_set1_ps(HUSH_ERF_R7));
    rr = _mm512_fmadd_ps(rr, t, _mm512_set1_ps(HUSH_ERF_R6));
    rr = _mm512_fmadd_ps(rr, t, _mm512_set1_ps(HUSH_ERF_R5));
    rr = _mm512_fmadd_ps(rr, t, _mm512_set1_ps(HUSH_ERF_R4));
    rr = _mm512_fmadd_ps(rr, t, _mm512_set1_ps(HUSH_ERF_R3));
    rr = _mm512_fmadd_ps(rr, t, _mm512_set1_ps(HUSH_ERF_R2));
    rr = _mm512_fmadd_ps(rr, t, _mm512_set1_ps(HUSH_ERF_R1));
    rr = _mm512_fmadd_ps(rr, t, _mm512_set1_ps(HUSH_ERF_R0));
    __m512 e = exp512(_mm512_sub_ps(_mm512_setzero_ps(), hi));
    e = _mm512_fnmadd_ps(e, lo, e);  // exp(-hi - lo) ~ exp(-hi) * (1 - lo)
    __m512 erfc = _mm512_mul_ps(e, rr);
    __mmask16 negative = _mm512_cmp_ps_mask(z, _mm512_setzero_ps(), _CMP_LT_OQ);
    __mmask16 is_small = _mm512_cmp_ps_mask(a, one, _CMP_LT_OQ);
    __m512 from_small = _mm512_mask_sub_ps(_mm512_add_ps(one, small), negative, one, small);
    __m512 from_large = _mm512_mask_mov_ps(_mm512_sub_ps(_mm512_set1_ps(2.0f), erfc), negative, erfc);
    return _mm512_mask_mov_ps(from_large, is_small, from_small);
}

static inline AVX512 __m512 gelu512(__m512 v) {
    __m512 ope = one_plus_erf512(_mm512_mul_ps(v, _mm512_set1_ps(0.70710678118654752f)));
    return _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.5f), v), ope);
}

AVX512 void hush_bias_gelu_f32_avx512(float *x, size_t rows, size_t cols, const float *bias) {
    const size_t full = cols & ~(size_t)15;
    const __mmask16 k = mask16(cols - full);
    for (size_t r = 0; r < rows; r++) {
        float *row = x + r * cols;
        for (size_t c = 0; c < full; c += 16)
            _mm512_storeu_ps(row + c, gelu512(_mm512_add_ps(_mm512_loadu_ps(row + c),
                                                            bias ? _mm512_loadu_ps(bias + c) : _mm512_setzero_ps())));
        if (k)
            _mm512_mask_storeu_ps(
                row + full, k,
                gelu512(_mm512_add_ps(_mm512_maskz_loadu_ps(k, row + full),
                                      bias ? _mm512_maskz_loadu_ps(k, bias + full) : _mm512_setzero_ps())));
    }
}

/// Loads `row + bias + residual` (either may be NULL) under mask k, zero elsewhere.
static inline AVX512 __m512 ln_input(__mmask16 k, const float *row, const float *bias, const float *res) {
    __m512 v = _mm512_maskz_loadu_ps(k, row);
    if (bias) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(k, bias));
    if (res) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(k, res));
    return v;
}

// Mean and variance are accumulated in double (as the reference does), so a large common offset costs nothing.
AVX512 void hush_bias_residual_layernorm_f32_avx512(float *x, size_t rows, size_t cols, const float *bias,
                                                    const float *residual, const float *gamma, const float *beta,
                                                    float eps) {
    if (cols == 0) return;
    for (size_t r = 0; r < rows; r++) {
        float *row = x + r * cols;
        const float *res = residual ? residual + r * cols : NULL;
        __m512d s0 = _mm512_setzero_pd(), s1 = _mm512_setzero_pd();
        for (size_t c = 0; c < cols; c += 16) {
            __mmask16 k = cols - c >= 16 ? (__mmask16)0xFFFF : mask16(cols - c);
            __m512 v = ln_input(k, row + c, bias ? bias + c : NULL, res ? res + c : NULL);
            _mm512_mask_storeu_ps(row + c, k, v);
            s0 = _mm512_add_pd(s0, _mm512_cvtps_pd(_mm512_castps512_ps256(v)));
            s1 = _mm512_add_pd(s1, _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1)));
        }
        const double mean = _mm512_reduce_add_pd(_mm512_add_pd(s0, s1)) / (double)cols;
        const __m512d meanv = _mm512_set1_pd(mean);
        __m512d q0 = _mm512_setzero_pd(), q1 = _mm512_setzero_pd();
        for (size_t c = 0; c < cols; c += 16) {
            __mmask16 k = cols - c >= 16 ? (__mmask16)0xFFFF : mask16(cols - c);
            __m512 v = _mm512_maskz_loadu_ps(k, row + c);
            __m512d d0 = _mm512_maskz_sub_pd((__mmask8)k, _mm512_cvtps_pd(_mm512_castps512_ps256(v)), meanv);
            __m512d d1 = _mm512_maskz_sub_pd((__mmask8)(k >> 8), _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1)), meanv);
            q0 = _mm512_fmadd_pd(d0, d0, q0);
            q1 = _mm512_fmadd_pd(d1, d1, q1);
        }
        const double var = _mm512_reduce_add_pd(_mm512_add_pd(q0, q1)) / (double)cols;
        const __m512 inv = _mm512_set1_ps((float)(1.0 / sqrt(var + eps)));
        const __m512 meanf = _mm512_set1_ps((float)mean);
        for (size_t c = 0; c < cols; c += 16) {
            __mmask16 k = cols - c >= 16 ? (__mmask16)0xFFFF : mask16(cols - c);
            __m512 v = _mm512_mul_ps(_mm512_sub_ps(_mm512_maskz_loadu_ps(k, row + c), meanf), inv);
            v = _mm512_fmadd_ps(v, _mm512_maskz_loadu_ps(k, gamma + c), _mm512_maskz_loadu_ps(k, beta + c));
            _mm512_mask_storeu_ps(row + c, k, v);
        }
    }
}

AVX512 void hush_scaled_softmax_rows_f32_avx512(float *x, size_t rows, size_t cols, size_t valid, float scale) {
    if (valid > cols) valid = cols;
    const __m512 sv = _mm512_set1_ps(scale);
    for (size_t r = 0; r < rows; r++) {
        float *row = x + r * cols;
        __m512 mx = _mm512_set1_ps(-INFINITY);
        for (size_t c = 0; c < valid; c += 16) {
            __mmask16 k = valid - c >= 16 ? (__mmask16)0xFFFF : mask16(valid - c);
            __m512 v = _mm512_mul_ps(_mm512_maskz_loadu_ps(k, row + c), sv);
            _mm512_mask_storeu_ps(row + c, k, v);
            mx = _mm512_mask_max_ps(mx, k, mx, v);
        }
        const __m512 m = _mm512_set1_ps(_mm512_reduce_max_ps(mx));
        __m512 sum = _mm512_setzero_ps();
        for (size_t c = 0; c < valid; c += 16) {
            __mmask16 k = valid - c >= 16 ? (__mmask16)0xFFFF : mask16(valid - c);
            __m512 e = exp512(_mm512_sub_ps(_mm512_maskz_loadu_ps(k, row + c), m));
            _mm512_mask_storeu_ps(row + c, k, e);
            sum = _mm512_mask_add_ps(sum, k, sum, e);
        }
        const float total = _mm512_reduce_add_ps(sum);
        const __m512 inv = _mm512_set1_ps(total > 0 ? 1.0f / total : 0.0f);
        for (size_t c = 0; c < valid; c += 16) {
            __mmask16 k = valid - c >= 16 ? (__mmask16)0xFFFF : mask16(valid - c);
            _mm512_mask_storeu_ps(row + c, k, _mm512_mul_ps(_mm512_maskz_loadu_ps(k, row + c), inv));
        }
        for (size_t c = valid; c < cols; c += 16) {
            __mmask16 k = cols - c >= 16 ? (__mmask16)0xFFFF : mask16(cols - c);
            _mm512_mask_storeu_ps(row + c, k, _mm512_setzero_ps());
        }
    }
}

#endif
