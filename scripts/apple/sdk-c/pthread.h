/* Minimal restatement for compile checks (scripts/check-apple-kernels), not Apple's header: POSIX threads. */
#ifndef HUSH_SDK_C_PTHREAD_H
#define HUSH_SDK_C_PTHREAD_H

/* Darwin's pthread objects are a signature word followed by opaque storage; the sizes are those of 64-bit
   Darwin (a mutex 64 bytes, a condition 48, a once flag 16, an attribute set 64, 16 or 16). */
typedef struct hush_sdk_thread *pthread_t;
typedef struct { long sig; char opaque[56]; } pthread_attr_t;
typedef struct { long sig; char opaque[56]; } pthread_mutex_t;
typedef struct { long sig; char opaque[8]; } pthread_mutexattr_t;
typedef struct { long sig; char opaque[40]; } pthread_cond_t;
typedef struct { long sig; char opaque[8]; } pthread_condattr_t;
typedef struct { long sig; char opaque[8]; } pthread_once_t;

/* A once flag starts with Darwin's "not yet run" signature. */
#define PTHREAD_ONCE_INIT {0x30B1BCBA, {0}}

int pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *), void *argument);
int pthread_join(pthread_t thread, void **result);
int pthread_once(pthread_once_t *flag, void (*routine)(void));

int pthread_mutex_init(pthread_mutex_t *mutex, const pthread_mutexattr_t *attributes);
int pthread_mutex_destroy(pthread_mutex_t *mutex);
int pthread_mutex_lock(pthread_mutex_t *mutex);
int pthread_mutex_unlock(pthread_mutex_t *mutex);

int pthread_cond_init(pthread_cond_t *condition, const pthread_condattr_t *attributes);
int pthread_cond_destroy(pthread_cond_t *condition);
int pthread_cond_wait(pthread_cond_t *condition, pthread_mutex_t *mutex);
int pthread_cond_broadcast(pthread_cond_t *condition);

#endif
