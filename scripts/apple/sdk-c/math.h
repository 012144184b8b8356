/* Minimal restatement for compile checks (scripts/check-apple-kernels), not Apple's header: the math functions used. */
#ifndef HUSH_SDK_C_MATH_H
#define HUSH_SDK_C_MATH_H

#define INFINITY __builtin_inff()

double sqrt(double x);
float expf(float x);
float erff(float x);
float fabsf(float x);
float fmaxf(float x, float y);
float fmaf(float x, float y, float z);
long lrintf(float x);

#endif
