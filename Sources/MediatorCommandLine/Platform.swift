// The C library's I/O calls by one name on every platform this module builds for. Swift cannot
// name `read` and `write` unqualified where its own methods of the same names are in scope, so
// each is bound once here (`package`: `mediate` reads its data file with the same call).
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
#else
#error("MediatorCommandLine needs a C library with read(2) and write(2): Darwin, Glibc or Musl")
#endif
