// The functions are all `static inline` in the header; the thread-local word is defined here.
#include "MediatorAtomics.h"

// `nodebug`: no debug information for this file at all, which keeps the object free of the DWARF 5
// forms that Valgrind 3.19 (Debian 12's) cannot read ("unhandled dwarf2 abbrev form code 0x25"):
// callgrind measures this package's benchmarks.
__attribute__((nodebug)) _Thread_local intptr_t mediator_thread_call_depth = 0;
