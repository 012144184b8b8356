// A plain streaming read: the memory-bandwidth floor that the exact scan is measured against.
#include "HushKernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx512f"))) static float stream_sum_avx512(const float *x, size_t n) {
    // Eight independent accumulators: bound by loads, never by the add latency.
    __m512 a[8];
    for (int j = 0; j < 8; j++) a[j] = _mm512_setzero_ps();
    size_t i = 0;
    for (; i + 128 <= n; i += 128) {
        for (int j = 0; j < 8; j++) a[j] = _mm512_add_ps(a[j], _mm512_loadu_ps(x + i + 16 * j));
    }
    for (int j = 1; j < 8; j++) a[0] = _mm512_add_ps(a[0], a[j]);
    float s = _mm512_reduce_add_ps(a[0]);
    for (; i < n; i++) s += x[i];
    return s;
}
#endif

float hush_stream_sum_f32(const float *x, size_t n) {
#if defined(__x86_64__)
    if (hush_kernels_level() == HUSH_LEVEL_AVX512) return stream_sum_avx512(x, n);
#endif
    // Four independent sums so the loop is bound by loads, not by the add latency.
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += x[i];
        s1 += x[i + 1];
        s2 += x[i + 2];
        s3 += x[i + 3];
    }
    for (; i < n; i++) s0 += x[i];
    return (s0 + s1) + (s2 + s3);
}

size_t hush_select_below_u32(const uint32_t *values, size_t n, uint32_t limit, uint32_t *indices) {
    // Branch-free: every index is written, and the count only advances past the ones that pass.
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        indices[count] = (uint32_t)i;
        count += values[i] < limit;
    }
    return count;
}

size_t hush_select_scaled_above(const int32_t *dots, const float *scales, size_t n, float limit, uint32_t *indices,
                                float *scores) {
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        const float score = scales ? (float)dots[i] * scales[i] : (float)dots[i];
        indices[count] = (uint32_t)i;
        scores[count] = score;
        count += score > limit;
    }
    return count;
}
