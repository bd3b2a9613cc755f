// Atomic loads and stores of one machine word, for the Mediator library's lock-free flags, and one
// word per thread, for its count of nested calls.
//
// Swift's own atomics (the Synchronization module) need macOS 15 / iOS 18, newer than the systems
// the package supports; these compiler builtins work wherever clang does, and ThreadSanitizer sees
// them. Only these operations are exposed: nothing else in the package needs them yet.
#ifndef MEDIATOR_ATOMICS_H
#define MEDIATOR_ATOMICS_H

#include <stdint.h>

/// The word's value, read with acquire ordering: what was written before the store that wrote it
/// is visible after this load.
static inline intptr_t mediator_atomic_load_acquire(const intptr_t *word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/// Writes the word with release ordering (see `mediator_atomic_load_acquire`).
static inline void mediator_atomic_store_release(intptr_t *word, intptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

/// The calling thread's count of nested synchronous mediator calls, zero on every new thread.
/// C11 `_Thread_local` rather than a POSIX thread-specific key: reading and writing it is a few
/// instructions where `pthread_getspecific` and `pthread_setspecific` are calls (three per call of
/// the mediator, ~150 instructions with the key's lazy initialisation).
extern _Thread_local intptr_t mediator_thread_call_depth;

/// The calling thread's count (see `mediator_thread_call_depth`).
static inline intptr_t mediator_thread_call_depth_get(void) {
    return mediator_thread_call_depth;
}

/// Sets the calling thread's count (see `mediator_thread_call_depth`).
static inline void mediator_thread_call_depth_set(intptr_t value) {
    mediator_thread_call_depth = value;
}

#endif
