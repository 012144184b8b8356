// What the x86 kernels of the 4-bit x 8-bit product share (KernelsAVX2.c, KernelsAVX512.c): the loop sizes and the
// activation scales and code sums of each group of four tokens, gathered once per chunk of tokens and span of
// blocks. Plain SSE, part of every x86-64.
#ifndef HUSH_Q4Q8_X86_H
#define HUSH_Q4Q8_X86_H
#if defined(__x86_64__)

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

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

#endif
#endif
