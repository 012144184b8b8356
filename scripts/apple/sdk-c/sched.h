/* Minimal restatement for compile checks (scripts/check-apple-kernels), not Apple's header: scheduling. */
#ifndef HUSH_SDK_C_SCHED_H
#define HUSH_SDK_C_SCHED_H

int sched_yield(void);

#endif
