// The C library of the platform the tests run on, imported once for every file of this test
// module: an `@_exported import` is visible in all of the module's files (a test module has no
// clients to leak it to).
#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Android)
@_exported import Android
#endif
