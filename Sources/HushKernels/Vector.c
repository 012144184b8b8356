#include "HushKernels.h"

#include <math.h>

// One loop per vector, a few hundred floats, once per embedding: not worth a vectorised variant. Summing in
// double keeps the norm exact to f32 rounding whatever the length.
float hush_normalize_f32(const float *x, float *out, size_t n) {
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += (double)x[i] * (double)x[i];
    double norm = sqrt(sum);
    float scale = (float)(1.0 / (norm > 1e-12 ? norm : 1e-12));
    for (size_t i = 0; i < n; i++) out[i] = x[i] * scale;
    return (float)norm;
}
