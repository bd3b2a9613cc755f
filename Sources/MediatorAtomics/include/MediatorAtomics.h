// Atomic loads and stores of one machine word, for the Mediator library's lock-free flags.
//
// Swift's own atomics (the Synchronization module) need macOS 15 / iOS 18, newer than the systems
// the package supports; these compiler builtins work wherever clang does, and ThreadSanitizer sees
// them. Only these two operations are exposed: nothing else in the package needs atomics yet.
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

#endif
