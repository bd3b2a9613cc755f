// The platforms mediator-fuzz builds for, decided here once: the C library is Darwin on Apple platforms,
// Glibc or Musl on Linux, Android on Android; anything else stops the build with a message naming
// it. Swift makes an `import` visible only in its own file, so each file that calls the C library
// imports it with the same four-way block; this file is where a platform is added.
#if canImport(Darwin) || canImport(Glibc) || canImport(Musl) || canImport(Android)
// Supported.
#elseif os(Windows)
#error("mediator-fuzz needs POSIX I/O (opendir, read, write); Windows is not supported yet")
#else
#error("mediator-fuzz needs POSIX I/O (opendir, read, write) from a C library: Darwin, Glibc, Musl or Android")
#endif
