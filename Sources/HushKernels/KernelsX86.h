// What the x86 kernel files share (KernelsAVX2.c, KernelsAVX512.c): the sum of a 256-bit register's lanes, and
// the pieces of the 4-bit x 8-bit product that do not depend on the width of its tile (loop sizes, the unpacking
// of a weight block, the gathering of activation scales and sums, the products of the scales). The functions
// carry AVX2's target attribute, a subset of every AVX-512 kernel's, so both files inline them.
#ifndef HUSH_KERNELS_X86_H
#define HUSH_KERNELS_X86_H
#if defined(__x86_64__)

#include "Kernels.h"
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#define HUSH_X86_AVX2 __attribute__((target("avx2,fma,f16c")))

/// Unrolls the loop that follows in full (its count a compile-time constant after inlining), in clang's words or
/// GCC's (the x86 e5 driver of the arm64 suite builds these files with GCC).
#if defined(__clang__)
#define HUSH_UNROLL_FULL _Pragma("clang loop unroll(full)")
#else
#define HUSH_UNROLL_FULL _Pragma("GCC unroll 8")
#endif

/// Sum of the 8 lanes (low half plus high half, then pairs, then the last two).
static inline HUSH_X86_AVX2 float hsum(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

// MARK: - 4-bit weights x 8-bit activations

/// Blocks of a weight row done per pass (rows longer than 4096 take several passes, adding into y); tokens per
/// group; tokens quantised activations are taken in (a chunk stays in L1/L2 while every row pair is run against it).
enum { q4q8_span = 128, q4q8_tile_tokens = 4, q4q8_chunk_tokens = 32 };

/// Four tokens' activation scales and code sums per block (t0 t1 t2 t3).
typedef struct {
    __m128 scales[q4q8_span];
    __m128 sums[q4q8_span];
} q4q8_tokens;

/// Fills `groups` (one per four tokens of the chunk of `chunk` tokens from `c0`) with blocks b0 ..< b0 + count of
/// the tokens' scales `d` and code sums `s` (`blocks` per token). A short last group repeats its first token's
/// values in the unused lanes.
static inline void q4q8_gather(const float *d, const int32_t *s, size_t m, size_t blocks, size_t c0, size_t chunk,
                               size_t b0, size_t count, q4q8_tokens *groups) {
    for (size_t g = 0; g * q4q8_tile_tokens < chunk; g++)
        for (size_t b = 0; b < count; b++) {
            const size_t t0 = c0 + g * q4q8_tile_tokens;
            float scales[q4q8_tile_tokens], sums[q4q8_tile_tokens];
            for (size_t t = 0; t < q4q8_tile_tokens; t++) {
                const size_t token = t0 + t < m ? t0 + t : t0;
                const size_t i = token * blocks + b0 + b;
                scales[t] = d[i];
                sums[t] = (float)s[i];
            }
            groups[g].scales[b] = _mm_loadu_ps(scales);
            groups[g].sums[b] = _mm_loadu_ps(sums);
        }
}

/// A Q4_0 block's 32 weights as bytes in order (0-15 from the low nibbles, 16-31 from the high ones), unsigned:
/// the -8 comes later through the activations' code sums.
static inline HUSH_X86_AVX2 __m256i q4q8_nibbles(const uint8_t *block) {
    const __m128i mask = _mm_set1_epi8(0x0F);
    const __m128i bytes = _mm_loadu_si128((const __m128i *)(block + 2));
    return _mm256_set_m128i(_mm_and_si128(_mm_srli_epi16(bytes, 4), mask), _mm_and_si128(bytes, mask));
}

/// Two Q4_0 blocks' scales (binary16) as (d0 d0 d0 d0 d1 d1 d1 d1), to meet four tokens' scales lane for lane.
static inline HUSH_X86_AVX2 void q4q8_pair_scales(const uint8_t *block0, const uint8_t *block1, float out[8]) {
    const __m128 d0 = _mm_set1_ps(_cvtsh_ss((unsigned short)(block0[0] | (block0[1] << 8))));
    const __m128 d1 = _mm_set1_ps(_cvtsh_ss((unsigned short)(block1[0] | (block1[1] << 8))));
    _mm256_storeu_ps(out, _mm256_set_m128(d1, d0));
}

/// The scale products of a row pair and a group of four tokens, per block (dw0 da0 .. dw0 da3 dw1 da0 .. dw1 da3)
/// into `scales`, so that the main loop takes each as a broadcast from memory instead of a shuffle; returns the
/// correction sums over the blocks of those products times the tokens' code sums (the -8 of the weights).
static inline HUSH_X86_AVX2 __m256 q4q8_scale_products(const float (*rows)[8], const q4q8_tokens *group,
                                                      size_t count, float (*scales)[8]) {
    __m256 corr = _mm256_setzero_ps();
    for (size_t b = 0; b < count; b++) {
        const __m256 s = _mm256_mul_ps(_mm256_load_ps(rows[b]), _mm256_broadcast_ps(&group->scales[b]));
        corr = _mm256_fmadd_ps(s, _mm256_broadcast_ps(&group->sums[b]), corr);
        _mm256_store_ps(scales[b], s);
    }
    return corr;
}

// MARK: - 4-bit weights, 8 rows interleaved x 8-bit activations

/// One group-block of the 8-row layout (at p: the 8 rows' binary16 scales, then four 32-byte runs of nibbles) as
/// the rows' scales (returned, row r in lane r) and weights as bytes: w[j] (j < 4) holds weights 4j .. 4j + 3 of
/// each row (row r in lane r), w[j + 4] weights 16 + 4j .. 16 + 4j + 3; unsigned (the -8 comes later through the
/// activations' code sums).
static inline HUSH_X86_AVX2 __attribute__((always_inline)) __m256 rows8_block(const uint8_t *p, __m256i w[8]) {
    const __m256i mask = _mm256_set1_epi8(0x0F);
    for (int j = 0; j < 4; j++) {
        const __m256i run = _mm256_loadu_si256((const __m256i *)(p + 16 + 32 * j));
        w[j] = _mm256_and_si256(run, mask);
        w[j + 4] = _mm256_and_si256(_mm256_srli_epi16(run, 4), mask);
    }
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
}

/// A level's tile of the 8-row product: `tokens` tokens (1 up to the level's tile) from q, d and s against the
/// group of 8 rows whose blocks start at p, into 8 columns of y.
typedef void (*rows8_tile_fn)(size_t tokens, const uint8_t *p, size_t blocks, const int8_t *q, const float *d,
                              const int32_t *s, size_t k, const float *bias, float *y, size_t ldy);

/// The loops of the 8-row product around a level's tile: 32 tokens at a time (their codes stay in cache), then each
/// group of 8 rows (its blocks stay in L1) against the chunk's tokens `tile_tokens` at a time.
static inline __attribute__((always_inline)) void rows8_loops(size_t tile_tokens, rows8_tile_fn tile,
                                                              const int8_t *q, const float *d, const int32_t *s,
                                                              size_t m, size_t k, const uint8_t *packed, size_t n,
                                                              const float *bias, float *y, size_t ldy) {
    const size_t blocks = k / 32;
    for (size_t c0 = 0; c0 < m; c0 += q4q8_chunk_tokens) {
        const size_t end = m - c0 < q4q8_chunk_tokens ? m : c0 + q4q8_chunk_tokens;
        for (size_t g = 0; g < n / 8; g++) {
            const uint8_t *p = packed + g * blocks * hush_rows8_block_bytes;
            const float *group_bias = bias ? bias + 8 * g : NULL;
            for (size_t t0 = c0; t0 < end; t0 += tile_tokens)
                tile(end - t0 < tile_tokens ? end - t0 : tile_tokens, p, blocks, q + t0 * k, d + t0 * blocks,
                     s + t0 * blocks, k, group_bias, y + t0 * ldy + 8 * g, ldy);
        }
    }
}

#endif
#endif
