// A small fork-join team of threads for latency-bound work: one short query split over every core.
//
// A query's encoder runs about a hundred short parallel steps (a matrix product's columns, attention heads,
// layer-norm rows), each a few tens of microseconds long. Waking pooled threads through the kernel for every
// step costs as much as the step, so a team's workers spin on a step counter between steps and only sleep
// (on a condition variable) after HUSH_TEAM_SPIN_NS without work. The caller takes part as member 0 and spins
// until the others are done, so a step costs one cache-line round trip instead of two thread wake-ups.
#include "HushKernels.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HUSH_CPU_RELAX() _mm_pause()
#elif defined(__aarch64__)
#define HUSH_CPU_RELAX() __asm__ __volatile__("yield")
#else
#define HUSH_CPU_RELAX() ((void)0)
#endif

/// How long an idle worker spins before it sleeps: long enough to bridge the gaps between the steps of one
/// query (microseconds), short enough that a team between keystrokes gives its cores back at once.
#define HUSH_TEAM_SPIN_NS 50000u

/// Pauses the caller spins at a step's end before it yields its core at every further check: a worker the
/// scheduler took off its core (the machine busy with indexing) then gets it back instead of the caller
/// spinning through the worker's whole time slice.
#define HUSH_TEAM_JOIN_SPINS 2048u

struct hush_team {
    size_t size;  // members, the caller included
    pthread_t *threads;
    struct hush_team_worker *workers;
    // The current step: written by the caller before `step` is bumped, read by workers after they see it.
    hush_team_task task;
    void *context;
    _Atomic uint64_t step;
    _Atomic size_t running;  // workers still in the current step
    _Atomic int sleepers;
    _Atomic int stopping;
    pthread_mutex_t mutex;
    pthread_cond_t wake;
};

struct hush_team_worker {
    hush_team *team;
    size_t index;
};

static uint64_t monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/// Waits until the step counter moves past `seen`; spins first, then sleeps. Returns the new step.
static uint64_t await_step(hush_team *team, uint64_t seen) {
    uint64_t step;
    uint64_t deadline = 0;
    for (unsigned spins = 1;; spins++) {
        step = atomic_load_explicit(&team->step, memory_order_acquire);
        if (step != seen) return step;
        HUSH_CPU_RELAX();
        if ((spins & 255) != 0) continue;
        uint64_t now = monotonic_ns();
        if (deadline == 0) {
            deadline = now + HUSH_TEAM_SPIN_NS;
        } else if (now >= deadline) {
            break;
        }
    }
    // Sleep. `sleepers` and `step` are sequentially consistent, so either the caller sees this sleeper and
    // signals under the mutex, or this thread sees the new step before waiting.
    pthread_mutex_lock(&team->mutex);
    atomic_fetch_add(&team->sleepers, 1);
    while ((step = atomic_load(&team->step)) == seen) pthread_cond_wait(&team->wake, &team->mutex);
    atomic_fetch_sub(&team->sleepers, 1);
    pthread_mutex_unlock(&team->mutex);
    return step;
}

static void *worker_main(void *argument) {
    struct hush_team_worker *worker = argument;
    hush_team *team = worker->team;
    uint64_t seen = 0;
    for (;;) {
        seen = await_step(team, seen);
        if (atomic_load_explicit(&team->stopping, memory_order_acquire)) return NULL;
        team->task(team->context, worker->index, team->size);
        atomic_fetch_sub_explicit(&team->running, 1, memory_order_release);
    }
}

hush_team *hush_team_create(size_t size) {
    if (size < 1) size = 1;
    hush_team *team = calloc(1, sizeof(hush_team));
    if (!team) return NULL;
    team->size = size;
    atomic_init(&team->step, 0);
    atomic_init(&team->running, 0);
    atomic_init(&team->sleepers, 0);
    atomic_init(&team->stopping, 0);
    if (pthread_mutex_init(&team->mutex, NULL) != 0) {
        free(team);
        return NULL;
    }
    if (pthread_cond_init(&team->wake, NULL) != 0) {
        pthread_mutex_destroy(&team->mutex);
        free(team);
        return NULL;
    }
    if (size > 1) {
        team->threads = calloc(size - 1, sizeof(pthread_t));
        team->workers = calloc(size - 1, sizeof(struct hush_team_worker));
        if (!team->threads || !team->workers) {
            team->size = 1;
            hush_team_destroy(team);
            return NULL;
        }
        for (size_t i = 0; i < size - 1; i++) {
            team->workers[i] = (struct hush_team_worker){team, i + 1};
            if (pthread_create(&team->threads[i], NULL, worker_main, &team->workers[i]) != 0) {
                // Keep the workers that started; the team is smaller.
                team->size = i + 1;
                break;
            }
        }
    }
    return team;
}

size_t hush_team_size(const hush_team *team) { return team->size; }

/// Bumps the step and wakes sleeping workers.
static void publish(hush_team *team) {
    atomic_fetch_add(&team->step, 1);
    if (atomic_load(&team->sleepers) > 0) {
        pthread_mutex_lock(&team->mutex);
        pthread_cond_broadcast(&team->wake);
        pthread_mutex_unlock(&team->mutex);
    }
}

void hush_team_run(hush_team *team, hush_team_task task, void *context) {
    if (team->size == 1) {
        task(context, 0, 1);
        return;
    }
    team->task = task;
    team->context = context;
    atomic_store_explicit(&team->running, team->size - 1, memory_order_relaxed);
    publish(team);
    task(context, 0, team->size);
    for (unsigned spins = 0; atomic_load_explicit(&team->running, memory_order_acquire) != 0; spins++) {
        if (spins < HUSH_TEAM_JOIN_SPINS) {
            HUSH_CPU_RELAX();
        } else {
            sched_yield();
        }
    }
}

void hush_team_destroy(hush_team *team) {
    if (!team) return;
    if (team->size > 1) {
        atomic_store_explicit(&team->stopping, 1, memory_order_release);
        publish(team);
        for (size_t i = 0; i < team->size - 1; i++) pthread_join(team->threads[i], NULL);
    }
    free(team->threads);
    free(team->workers);
    pthread_cond_destroy(&team->wake);
    pthread_mutex_destroy(&team->mutex);
    free(team);
}
