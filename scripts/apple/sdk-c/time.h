/* Minimal restatement for compile checks (scripts/check-apple-kernels), not Apple's header: clocks. */
#ifndef HUSH_SDK_C_TIME_H
#define HUSH_SDK_C_TIME_H

typedef long time_t;

struct timespec {
    time_t tv_sec;
    long tv_nsec;
};

/* Darwin's clock identifiers are an enumeration (clock_gettime: macOS 10.12, iOS 10); the monotonic one is 6. */
typedef enum { HUSH_SDK_CLOCK_MONOTONIC = 6 } clockid_t;
#define CLOCK_MONOTONIC HUSH_SDK_CLOCK_MONOTONIC

int clock_gettime(clockid_t clock, struct timespec *now);

#endif
