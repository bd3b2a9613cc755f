// The platforms this module builds for, decided here once: the C library is Darwin on Apple
// platforms, Glibc or Musl on Linux, Android on Android; anything else stops the build with a
// message naming it. Swift makes an `import` visible only in its own file, so each file that calls
// the C library imports it with the same four-way block; this file is where a platform is added.
//
// The C library's I/O calls by one name on every platform: Swift cannot name `read` and `write`
// unqualified where its own methods of the same names are in scope, so each is bound once here
// (`package`: `mediate` reads its data file with the same call).
#if canImport(Darwin)
import Darwin
package let systemRead = Darwin.read
package let systemWrite = Darwin.write
#elseif canImport(Glibc)
import Glibc
package let systemRead = Glibc.read
package let systemWrite = Glibc.write
#elseif canImport(Musl)
import Musl
package let systemRead = Musl.read
package let systemWrite = Musl.write
#elseif canImport(Android)
import Android
package let systemRead = Android.read
package let systemWrite = Android.write
#elseif os(Windows)
#error("MediatorCommandLine needs POSIX I/O (read, write, poll, errno); Windows is not supported yet")
#else
#error("MediatorCommandLine needs a POSIX C library: Darwin, Glibc, Musl or Android")
#endif
