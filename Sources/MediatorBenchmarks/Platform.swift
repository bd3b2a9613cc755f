// The platforms mediator-bench builds for, decided here once: the C library is Darwin on Apple
// platforms, Glibc or Musl on Linux, Android on Android; anything else stops the build with a
// message naming it. An `@_exported import` is visible in every file of its module, so this is
// the one file of the module that imports the C library (an executable has no clients to leak
// it to); this file is where a platform is added.
#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Android)
@_exported import Android
#elseif os(Windows)
#error("mediator-bench needs POSIX threads and clocks (pthread_create, clock_gettime); Windows is not supported yet")
#else
#error("mediator-bench needs POSIX threads and clocks (pthread_create, clock_gettime) from a C library: Darwin, Glibc, Musl or Android")
#endif
