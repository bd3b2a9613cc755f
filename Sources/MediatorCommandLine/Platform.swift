// Everything this module asks of the C library: reading and writing descriptors, the system's
// text for an error number, reading a small file whole, and starting a thread. Swift makes an
// `import` visible only in the file that writes it, so the C library is chosen here once (Darwin
// on Apple platforms, Glibc or Musl on Linux, Android on Android; anything else stops the build
// with a message naming it), behind small internal wrappers; no other file of the module imports
// a C library, and this file is where a platform is added.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif os(Windows)
#error("MediatorCommandLine needs POSIX I/O and threads (read, write, poll, stat, open, pthread_create); Windows is not supported yet")
#else
#error("MediatorCommandLine needs a POSIX C library: Darwin, Glibc, Musl or Android")
#endif

// MARK: - Descriptors

/// `read(2)`, by a name that no method named `read` hides (`package`: `mediate` reads its data
/// file with it).
package func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// `write(2)`, by a name that no method named `write` hides.
func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// The system's text for an error number, as `strerror` gives it: "No space left on device".
func systemErrorText(_ errorNumber: Int32) -> String {
    String(cString: strerror(errorNumber))
}

/// Reads up to `buffer.count` bytes from `descriptor`, retrying interrupted reads and waiting
/// (rather than failing) while a non-blocking descriptor has nothing yet: a standard stream may
/// be non-blocking when a parent process made it so. Returns the count read (0 at the end), or
/// the failure.
func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, StreamError> {
    while true {
        let count = systemRead(descriptor, buffer.baseAddress!, buffer.count)
        if count >= 0 { return .success(count) }
        let failure = errno
        if failure == EINTR { continue }
        if failure == EAGAIN || failure == EWOULDBLOCK {
            if let pollFailure = waitUntilReady(descriptor, for: Int16(POLLIN)) { return .failure(StreamError(errorNumber: pollFailure)) }
            continue
        }
        return .failure(StreamError(errorNumber: failure))
    }
}

/// Writes every byte, retrying interrupted and partial writes, and waiting (rather than failing)
/// when the descriptor is non-blocking and full. Returns the error number of a failure, nil when
/// everything was written.
func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count {
        let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
            let failure = errno
            if failure == EINTR { continue }
            if failure == EAGAIN || failure == EWOULDBLOCK {
                if let pollFailure = waitUntilReady(descriptor, for: Int16(POLLOUT)) { return pollFailure }
                continue
            }
            return failure
        }
        offset += written
    }
    return nil
}

/// Blocks until `descriptor` is ready for `events` (`POLLIN`, `POLLOUT`). Returns the error number
/// of a failed `poll`.
private func waitUntilReady(_ descriptor: Int32, for events: Int16) -> Int32? {
    var entry = pollfd(fd: descriptor, events: events, revents: 0)
    while poll(&entry, 1, -1) < 0 {
        let failure = errno
        if failure != EINTR { return failure }
    }
    // Ready, or hung up or in error: the next read or write says which.
    return nil
}

/// The offset of the first newline in `buffer`, if any.
func firstNewline(in buffer: UnsafeRawBufferPointer) -> Int? {
    guard let base = buffer.baseAddress else { return nil }
    return memchr(base, 0x0A, buffer.count).map { base.distance(to: UnsafeRawPointer($0)) }
}

// MARK: - Files

/// What reading a file whole found.
enum FileContents {
    /// Its bytes, at most the limit.
    case bytes([UInt8])
    /// Not a regular file: what it is instead ("a directory", "a FIFO (named pipe)", ...).
    case notRegularFile(String)
    /// More bytes than the limit (said by its size, or found while reading).
    case tooLarge
    /// A call failed: what could not be done ("cannot open it") and the system's reason.
    case failed(String, StreamError)
}

/// Reads the regular file at `path` whole, refusing anything else (a FIFO or a device could block
/// or never end) and anything over `limit` bytes, without reading more than one byte past it.
func readRegularFile(atPath path: String, limit: Int) -> FileContents {
    var info = stat()
    guard stat(path, &info) == 0 else { return .failed("cannot read it", StreamError(errorNumber: errno)) }
    if let kind = fileKind(info) { return .notRegularFile(kind) }
    guard info.st_size <= limit else { return .tooLarge }
    // Non-blocking, so that a file swapped for a FIFO since `stat` cannot block the open.
    let file = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard file >= 0 else { return .failed("cannot open it", StreamError(errorNumber: errno)) }
    defer { _ = close(file) }
    guard fstat(file, &info) == 0 else { return .failed("cannot inspect it", StreamError(errorNumber: errno)) }
    if let kind = fileKind(info) { return .notRegularFile(kind) }
    guard info.st_size <= limit else { return .tooLarge }
    switch readToEnd(file, size: Int(info.st_size), limit: limit) {
    case .success(let bytes): return bytes.count > limit ? .tooLarge : .bytes(bytes)
    case .failure(let error): return .failed("cannot read it", error)
    }
}

/// The bytes of the open file `file` to its end, `size` of them expected, but never more than one
/// byte past `limit` (the file may grow after its size was read): more than `limit` bytes means
/// the file is larger than the limit. Only an interrupted read is retried: a regular file is never
/// "not ready", so any other error (EAGAIN included) is the file's (`package`: `mediate` reads its
/// state file with it).
package func readToEnd(_ file: Int32, size: Int, limit: Int) -> Result<[UInt8], StreamError> {
    var bytes = [UInt8](repeating: 0, count: min(size, limit) + 1)
    var count = 0
    while count <= limit {
        if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - count))) }
        let read = bytes.withUnsafeMutableBytes { systemRead(file, $0.baseAddress! + count, $0.count - count) }
        if read < 0 {
            let failure = errno
            if failure == EINTR { continue }
            return .failure(StreamError(errorNumber: failure))
        }
        if read == 0 { break }
        count += read
    }
    bytes.removeSubrange(count...)
    return .success(bytes)
}

/// What a file is when it is not a regular file; nil for a regular file.
private func fileKind(_ info: stat) -> String? {
    switch info.st_mode & S_IFMT {
    case S_IFREG: nil
    case S_IFDIR: "a directory"
    case S_IFIFO: "a FIFO (named pipe)"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "of an unknown kind"
    }
}

// MARK: - Threads

/// A POSIX thread started by ``startThread(_:)``.
package struct StartedThread {
    /// `pthread_t` is an integer in glibc and Bionic and a pointer in Darwin and musl.
    #if canImport(Darwin) || canImport(Musl)
    fileprivate let thread: pthread_t?
    #else
    fileprivate let thread: pthread_t
    #endif

    /// Waits until the thread's body has returned.
    package func join() {
        #if canImport(Darwin) || canImport(Musl)
        if let thread { pthread_join(thread, nil) }
        #else
        pthread_join(thread, nil)
        #endif
    }

    /// Lets the thread end on its own, its resources freed then; it cannot be joined after this.
    fileprivate func detach() {
        #if canImport(Darwin) || canImport(Musl)
        if let thread { pthread_detach(thread) }
        #else
        pthread_detach(thread)
        #endif
    }
}

/// Runs `body` on a new POSIX thread, outside the concurrency pool; `nil`, without running
/// `body`, when no thread could be started (`package`: the benchmarks start their threads with it).
package func startThread(_ body: @escaping @Sendable () -> Void) -> StartedThread? {
    final class Job: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Job(body)).toOpaque()
    #if canImport(Darwin) || canImport(Musl)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let started = pthread_create(
        &thread, nil,
        { raw in
            // Darwin passes the context as non-optional, the other C libraries as optional.
            #if canImport(Darwin)
            let job = Unmanaged<Job>.fromOpaque(raw).takeRetainedValue()
            #else
            let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
            #endif
            job.body()
            return nil
        }, context)
    guard started == 0 else {
        Unmanaged<Job>.fromOpaque(context).release()
        return nil
    }
    return StartedThread(thread: thread)
}

/// Runs `body` on a new detached POSIX thread: a blocking `read(2)` there never holds a thread of
/// the concurrency pool. Returns false, without running `body`, when no thread could be started
/// (`package`: `mediate` reads its Ctrl-C pipe on such a thread).
package func startDetachedThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    guard let started = startThread(body) else { return false }
    started.detach()
    return true
}
