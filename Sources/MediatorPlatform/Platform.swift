// The C library of the platform, chosen once for the package's executables and end-to-end tests
// (mediate, mediator-bench, mediator-fuzz, MediateTests): Darwin on Apple platforms, Glibc or Musl
// on Linux, Android on Android; anything else stops the build with a message naming it. This is
// where a platform is added. Each of those modules re-exports this one from its own Platform.swift
// (`@_exported import MediatorPlatform`), which makes the C library visible in every file of the
// module. The libraries do not use it: they keep their C calls behind internal wrappers, so that
// an app importing them is not handed the C library.
#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Android)
@_exported import Android
#elseif os(Windows)
#error("the Mediator package's tools need POSIX files, I/O, threads and signals; Windows is not supported yet")
#else
#error("the Mediator package's tools need POSIX files, I/O, threads and signals from a C library: Darwin, Glibc, Musl or Android")
#endif
