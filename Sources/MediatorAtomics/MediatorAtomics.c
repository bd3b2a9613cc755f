// The functions are all `static inline` in the header; a C target needs one source file.
#include "MediatorAtomics.h"
