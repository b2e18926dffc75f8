import COhanaCore
import OhanaCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A place to write output to, opened so that writing never destroys what
/// the path names: the one way the library (`ContactIO.write(_:format:to:)`)
/// and the `ohana` tool (`-o`, `--clusters`, `--explain`, `--report`,
/// `--truth`) open their outputs.
///
/// What happens depends on what the path is when the target is opened:
///
/// - **`-`**: standard output (descriptor 1, not closed).
/// - **No such file, or a regular file**: the bytes go to a temporary file
///   in the same directory (`.NAME.ohana-tmp-PID-N`), which ``commit()``
///   flushes to disk (`fsync`) and renames over the path; an interrupted or
///   failed run removes it, so the path holds either its old content or the
///   whole new content, never half of it. A new file gets mode
///   `0666 & ~umask`, as any tool's output does; an existing file keeps its
///   permission bits (and, when running as root, its owner and group).
///   Every ``writebackBytes`` written, the file's write-back to disk is
///   started without waiting (Linux `sync_file_range`), so that the
///   `fsync` of ``commit()`` waits for the last few megabytes only rather
///   than for the whole file.
///   Past its first ``directIOFrom`` bytes, a temporary file is written with
///   direct I/O (Linux `O_DIRECT`) where the file system allows it: the bytes
///   go from an aligned buffer of 4 MiB (``DirectStaging``) to the device
///   without a copy into the page cache, a copy that can make writing cost as
///   much CPU as encoding. The last partial block goes through the page cache;
///   a refusal (`EINVAL`: a file system or device without it) falls back to
///   ordinary writes for the rest of the file. The content is the same either
///   way, and the file is not left in the page cache for whoever reads it next.
///   An existing file that may not be written (`access(W_OK)` fails, say a
///   read-only `0444` file) is refused rather than replaced. The file
///   becomes a new inode: other hard links to it keep the old content.
/// - **A symbolic link** (also a chain of links, relative or absolute):
///   followed to its final target, and the target is written by the rule
///   that fits it; the link itself stays a link. The target of a dangling
///   link is created.
/// - **A character or block device, a FIFO or a Unix socket**: opened and
///   written to directly (a socket is connected to), never renamed over or
///   unlinked; `/dev/null` stays `/dev/null`. Opening a FIFO waits for a
///   reader, as for any writer.
/// - **`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`**: the
///   process's own open descriptor N, duplicated and written through (so a
///   redirected standard output keeps its position and is not truncated).
/// - **A directory**: an error, as is a path ending in `/`.
///
/// POSIX calls only (no Foundation). Not thread-safe: one writer at a time.
///
/// ```swift
/// let out = try OutputTarget(path: "clusters.csv")
/// try out.write(Array("uid,cluster_id\n".utf8))
/// try out.commit()   // without it, nothing replaces the path
/// ```
public final class OutputTarget {
  /// How the target is written.
  public enum Method: Sendable, Equatable {
    /// `-`: standard output.
    case standardOutput
    /// An open descriptor of this process (`/dev/stdout`, `/dev/fd/N`...),
    /// written through a duplicate of it.
    case descriptor(Int32)
    /// A temporary file renamed over ``OutputTarget/destination`` by
    /// ``OutputTarget/commit()``; `existed` says whether a file was there.
    case replace(existed: Bool)
    /// A device, FIFO or socket, opened and written to directly.
    case direct
  }

  /// The path as given.
  public let path: String
  /// Where the bytes end up: the path with every symbolic link followed
  /// (the path itself when it is not a link; `-` for standard output).
  public let destination: String
  /// How the target is written.
  public let method: Method

  private var fd: Int32
  private let tempPath: String?
  /// The temporary file's slot in the interrupt cleanup (``ohana_cleanup_add``):
  /// removed if SIGINT or SIGTERM stops the process first; -1 none.
  private var cleanupSlot: Int32 = -1
  private var finished = false
  /// Bytes written so far, and where the write-back not yet started begins
  /// (a temporary file only).
  private var written: Int64 = 0
  private var writebackFrom: Int64 = 0
  /// The flush started by ``startFlush()``, if any.
  private var pendingFlush: PendingFlush?
  /// Bytes bound for the file while it is written with direct I/O.
  private var staging: DirectStaging?
  /// From how many bytes on direct I/O is tried (a temporary file only).
  private let directFrom: Int64
  /// Set once direct I/O is over for this file: refused, failed, finished
  /// (by ``startFlush()``, ``commit()``) or the descriptor was handed out.
  private var directOver = false
  /// The `errno` of a started flush that failed before more bytes were
  /// written: reported by ``commit()`` (a second `fsync` after a failed one
  /// may succeed while the earlier bytes are lost).
  private var earlierFlushError: Int32 = 0

  /// Bytes of a temporary file written between two starts of its
  /// write-back (8 MiB: large enough to leave the device whole requests,
  /// small enough that the final `fsync` finds little to do).
  public static let writebackBytes: Int64 = 8 << 20

  /// Bytes of a temporary file written through the page cache before
  /// direct I/O is tried (16 MiB: small outputs, reports and tests' files
  /// stay ordinary).
  public static let directIOFrom: Int64 = 16 << 20

  /// The open descriptor the bytes go to (for `ContactIO.write(_:format:toFileDescriptor:)`
  /// and the like); valid until ``commit()`` or ``discard()``.
  /// (Bytes staged for direct I/O are written out first, and the rest of
  /// the file is written without it.)
  public var fileDescriptor: Int32 {
    endDirectIO()
    return fd
  }

  /// Opens `path` for writing by the rules in the type's description;
  /// `directIOFrom`: see ``directIOFrom`` (`Int64.max`: never).
  public init(path: String, directIOFrom: Int64 = OutputTarget.directIOFrom) throws(ContactIOError) {
    self.path = path
    directFrom = directIOFrom
    if path == "-" {
      destination = "-"
      method = .standardOutput
      fd = 1
      tempPath = nil
      return
    }
    guard !path.isEmpty else { throw ContactIOError(.io, "cannot write to an empty path") }
    guard !path.hasSuffix("/") else { throw ContactIOError(.io, "cannot write \(path): is a directory") }

    // Follow links one hop at a time: readlink keeps working on a dangling
    // link (realpath does not), and we see each hop to spot /proc/self/fd/N.
    var current = path
    var info = stat()
    var exists = false
    var hops = 0
    while true {
      if let n = Self.ownDescriptor(current) {
        let dup = fcntl(n, F_DUPFD_CLOEXEC, 3)
        guard dup >= 0 else { throw Self.failure(path, errno) }
        destination = current
        method = .descriptor(n)
        fd = dup
        tempPath = nil
        return
      }
      if lstat(current, &info) != 0 {
        let e = errno
        guard e == ENOENT else { throw Self.failure(path, e) }
        exists = false
        break
      }
      exists = true
      guard (info.st_mode & S_IFMT) == S_IFLNK else { break }
      hops += 1
      guard hops <= 40 else { throw Self.failure(path, ELOOP) }
      guard let target = Self.readLink(current) else { throw Self.failure(path, errno) }
      if target.hasPrefix("/") {
        current = target
      } else if let slash = current.lastIndex(of: "/") {
        current = String(current[...slash]) + target
      } else {
        current = target
      }
      guard !current.hasSuffix("/") else { throw ContactIOError(.io, "cannot write \(path): is a directory") }
    }
    destination = current

    let type = info.st_mode & S_IFMT
    if exists && type == S_IFDIR {
      throw ContactIOError(.io, "cannot write \(path): is a directory")
    }
    if exists && type == S_IFSOCK {
      fd = try Self.connect(current, path: path)
      method = .direct
      tempPath = nil
      return
    }
    if exists && type != S_IFREG {
      // Character or block device, FIFO: write in place, never replace.
      let opened = Self.open(current, O_WRONLY | O_CLOEXEC | O_NOCTTY, 0)
      guard opened >= 0 else { throw Self.failure(path, errno) }
      fd = opened
      method = .direct
      tempPath = nil
      return
    }
    if exists && access(current, W_OK) != 0 {
      throw Self.failure(path, errno)
    }

    // A regular file or nothing: a temporary file next to the destination.
    let prefix: String
    let name: String
    if let slash = current.lastIndex(of: "/") {
      prefix = String(current[...slash])
      name = String(current[current.index(after: slash)...])
    } else {
      prefix = ""
      name = current
    }
    // Keep the temporary name under NAME_MAX (255 bytes) whatever the name.
    let shortName = String(String.UnicodeScalarView(name.unicodeScalars.prefix(48)))
    // Temporary files of runs killed outright (their process is gone).
    Interrupts.removeLeftovers(in: prefix, stem: "." + shortName + ".ohana-tmp-")
    let stem = prefix + "." + shortName + ".ohana-tmp-" + String(getpid()) + "-"
    // An existing file's content is not readable by others before its mode is
    // copied; a new file is created 0666 and the umask applies as usual.
    let mode: mode_t = exists ? 0o600 : 0o666
    var opened: Int32 = -1
    var temp = ""
    for _ in 0..<100 {
      temp = stem + String(UInt32.random(in: 0...UInt32.max), radix: 36)
      opened = Self.open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
      if opened >= 0 || errno != EEXIST { break }
    }
    guard opened >= 0 else {
      let e = errno
      let dir = prefix.isEmpty ? "." : prefix.count > 1 && prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
      throw ContactIOError(.io, "cannot write \(path): cannot create a temporary file in \(dir): \(Self.reason(e))")
    }
    if exists {
      if geteuid() == 0 { _ = fchown(opened, info.st_uid, info.st_gid) }
      if fchmod(opened, info.st_mode & 0o7777) != 0 {
        let e = errno
        close(opened)
        unlink(temp)
        throw Self.failure(path, e)
      }
    }
    fd = opened
    tempPath = temp
    method = .replace(existed: exists)
    cleanupSlot = ohana_cleanup_add(temp)
  }

  deinit { discard() }

  /// Writes all of `bytes` (retrying short writes and `EINTR`).
  public func write(_ bytes: UnsafeRawBufferPointer) throws(ContactIOError) {
    guard !finished else { throw ContactIOError(.io, "cannot write \(path): already closed") }
    // More bytes after a flush was started: it covers the earlier ones
    // only, so ``commit()`` flushes again.
    if let started = pendingFlush {
      let e = started.wait()
      if earlierFlushError == 0 { earlierFlushError = e }
      pendingFlush = nil
    }
    var rest = bytes
    if staging == nil && !directOver && tempPath != nil && written + Int64(bytes.count) > directFrom {
      // Through the page cache up to a block boundary, then direct.
      let alignment = Int64(DirectStaging.alignment)
      let head = min(Int((alignment - written % alignment) % alignment), rest.count)
      try writeBuffered(UnsafeRawBufferPointer(rebasing: rest[..<head]))
      rest = UnsafeRawBufferPointer(rebasing: rest[head...])
      if written % alignment == 0 {
        if ohana_set_direct(fd, 1) == 1 { staging = DirectStaging() } else { directOver = true }
      }
    }
    guard let staging else { return try writeBuffered(rest) }
    while !rest.isEmpty {
      let took = staging.append(rest)
      rest = UnsafeRawBufferPointer(rebasing: rest[took...])
      written += Int64(took)
      if staging.isFull {
        let e = writeStagedBlocks(staging)
        if e != 0 { throw Self.failure(path, e) }
        // Direct I/O refused on the way: the staged bytes are written, the
        // rest goes through the page cache.
        if self.staging == nil { return try writeBuffered(rest) }
      }
    }
  }

  /// The `write(2)` of the staged blocks (tests make it refuse).
  var directWrite: (Int32, UnsafeRawPointer, Int) -> Int = { OutputTarget.posixWrite($0, $1, $2) }

  /// Whether the file is being written with direct I/O now (for tests).
  var writesDirectly: Bool { staging != nil && ohana_is_direct(fd) == 1 }

  /// Writes `bytes` through the page cache, with the write-back hints.
  private func writeBuffered(_ bytes: UnsafeRawBufferPointer) throws(ContactIOError) {
    let e = writeOut(bytes)
    if e != 0 { throw Self.failure(path, e) }
    guard tempPath != nil else { return }
    written += Int64(bytes.count)
    if written - writebackFrom >= Self.writebackBytes {
      // A hint: a refusal (say, a file system without it) changes nothing.
      _ = ohana_start_writeback(fd, writebackFrom, written - writebackFrom)
      writebackFrom = written
    }
  }

  /// Writes the staged whole blocks directly; after a refusal (`EINVAL`),
  /// turns direct I/O off and writes them through the page cache instead.
  /// Returns an `errno`, or 0.
  private func writeStagedBlocks(_ staging: DirectStaging) -> Int32 {
    let e = staging.writeBlocks { directWrite(fd, $0, $1) }
    guard e == EINVAL else { return e }
    _ = ohana_set_direct(fd, 0)
    self.staging = nil
    directOver = true
    return writeOut(staging.pending)
  }

  /// Ends direct I/O: the staged whole blocks are written directly, the
  /// partial block left through the page cache, and the rest of the file
  /// without direct I/O. Returns an `errno`, or 0.
  @discardableResult
  private func endDirectIO() -> Int32 {
    directOver = true
    guard let staging else { return 0 }
    var e = writeStagedBlocks(staging)
    if self.staging != nil {
      _ = ohana_set_direct(fd, 0)
      if e == 0 { e = writeOut(staging.pending) }
      self.staging = nil
    }
    if e != 0 && earlierFlushError == 0 { earlierFlushError = e }
    return e
  }

  /// Writes all of `bytes` (retrying short writes and `EINTR`), counting
  /// nothing; returns an `errno`, or 0.
  private func writeOut(_ bytes: UnsafeRawBufferPointer) -> Int32 {
    guard let base = bytes.baseAddress else { return 0 }
    var off = 0
    while off < bytes.count {
      let n = Self.posixWrite(fd, base + off, bytes.count - off)
      if n < 0 {
        if errno == EINTR { continue }
        return errno
      }
      off += n
    }
    return 0
  }

  /// Writes all of `bytes`.
  public func write(_ bytes: [UInt8]) throws(ContactIOError) {
    var failure: ContactIOError?
    bytes.withUnsafeBytes { raw in
      do throws(ContactIOError) { try write(raw) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// Says that nothing more will be written: a temporary file's flush to disk
  /// (`fsync`) starts on another thread, and ``commit()`` waits for it instead
  /// of flushing itself. A command with several outputs calls this after each
  /// one, so that each flush overlaps the encoding of the next output rather
  /// than adding to the time after it. Nothing for the other methods.
  public func startFlush() {
    guard !finished, pendingFlush == nil, case .replace = method, tempPath != nil else { return }
    endDirectIO()  // a failure is kept for commit()
    pendingFlush = PendingFlush(fd: fd)
  }

  /// Finishes the output: a temporary file is flushed to disk, closed and
  /// renamed over its destination; a device, FIFO, socket or duplicated
  /// descriptor is closed; standard output is left open. On failure the
  /// temporary file is removed and the destination left as it was.
  public func commit() throws(ContactIOError) {
    guard !finished else { return }
    finished = true
    switch method {
    case .standardOutput:
      return
    case .descriptor, .direct:
      guard close(fd) == 0 else { throw Self.failure(path, errno) }
    case .replace:
      guard let tempPath else { return }
      defer { forgetCleanup() }  // renamed into place or removed, whatever happens below
      endDirectIO()  // a failure is in earlierFlushError
      var flushError: Int32
      if let started = pendingFlush {
        flushError = started.wait()
        pendingFlush = nil
      } else {
        flushError = fsync(fd) == 0 ? 0 : errno
      }
      if earlierFlushError != 0 { flushError = earlierFlushError }
      if flushError != 0 {
        let e = flushError
        close(fd)
        unlink(tempPath)
        throw Self.failure(path, e)
      }
      if close(fd) != 0 {
        let e = errno
        unlink(tempPath)
        throw Self.failure(path, e)
      }
      guard rename(tempPath, destination) == 0 else {
        let e = errno
        unlink(tempPath)
        throw Self.failure(path, e)
      }
      // Make the rename itself durable (best effort).
      let dir: String
      if let slash = destination.lastIndex(of: "/") {
        dir = slash == destination.startIndex ? "/" : String(destination[..<slash])
      } else {
        dir = "."
      }
      let dirFD = Self.open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
      if dirFD >= 0 {
        _ = fsync(dirFD)
        close(dirFD)
      }
    }
  }

  /// Abandons the output: a temporary file is closed and removed (the
  /// destination keeps what it had); anything else is closed. Called by
  /// `deinit` when ``commit()`` was not.
  public func discard() {
    guard !finished else { return }
    finished = true
    switch method {
    case .standardOutput:
      return
    case .descriptor, .direct:
      close(fd)
    case .replace:
      // A flush under way still uses the descriptor.
      _ = pendingFlush?.wait()
      pendingFlush = nil
      staging = nil
      close(fd)
      if let tempPath { unlink(tempPath) }
      forgetCleanup()
    }
  }

  private func forgetCleanup() {
    ohana_cleanup_remove(cleanupSlot)
    cleanupSlot = -1
  }

  // MARK: Helpers

  /// N when `path` names this process's descriptor N.
  static func ownDescriptor(_ path: String) -> Int32? {
    switch path {
    case "/dev/stdin": return 0
    case "/dev/stdout": return 1
    case "/dev/stderr": return 2
    default: break
    }
    let rest: Substring
    let ownPID = "/proc/" + String(getpid()) + "/fd/"
    if path.hasPrefix("/dev/fd/") {
      rest = path.dropFirst(8)
    } else if path.hasPrefix("/proc/self/fd/") {
      rest = path.dropFirst(14)
    } else if path.hasPrefix("/proc/thread-self/fd/") {
      rest = path.dropFirst(21)
    } else if path.hasPrefix(ownPID) {
      rest = path.dropFirst(ownPID.utf8.count)
    } else {
      return nil
    }
    guard !rest.isEmpty, rest.utf8.count < 10, rest.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
      return nil
    }
    return Int32(rest)
  }

  /// The target of the symbolic link at `path`, or nil with `errno` set.
  static func readLink(_ path: String) -> String? {
    var size = 256
    while size <= 1 << 16 {
      var buffer = [UInt8](repeating: 0, count: size)
      let n = buffer.withUnsafeMutableBufferPointer { p -> Int in
        guard let base = p.baseAddress else { return -1 }
        return base.withMemoryRebound(to: CChar.self, capacity: size) { readlink(path, $0, size) }
      }
      if n < 0 { return nil }
      if n < size { return String(decoding: buffer[..<n], as: UTF8.self) }
      size *= 4
    }
    errno = ENAMETOOLONG
    return nil
  }

  /// A stream connection to the Unix socket at `socketPath`.
  static func connect(_ socketPath: String, path: String) throws(ContactIOError) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(socketPath.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
      throw ContactIOError(.io, "cannot write \(path): socket path too long")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, b) in bytes.enumerated() { raw[i] = b }
      raw[bytes.count] = 0
    }
    #if canImport(Glibc)
      let stream = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    #else
      let stream = SOCK_STREAM
    #endif
    let s = socket(AF_UNIX, stream, 0)
    guard s >= 0 else { throw failure(path, errno) }
    let length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let status = withUnsafePointer(to: &address) { p in
      p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        #if canImport(Glibc)
          Glibc.connect(s, $0, length)
        #else
          Darwin.connect(s, $0, length)
        #endif
      }
    }
    guard status == 0 else {
      let e = errno
      close(s)
      throw failure(path, e)
    }
    return s
  }

  static func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    #if canImport(Glibc)
      Glibc.open(path, flags, mode)
    #else
      Darwin.open(path, flags, mode)
    #endif
  }

  static func posixWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(fd, p, n)
    #else
      Darwin.write(fd, p, n)
    #endif
  }

  static func failure(_ path: String, _ code: Int32) -> ContactIOError {
    ContactIOError(.io, "cannot write \(path): \(reason(code))")
  }

  /// `strerror` text, lower-cased ("no such file or directory").
  static func reason(_ code: Int32) -> String {
    guard let s = strerror(code) else { return "error \(code)" }
    let text = String(cString: s)
    guard let first = text.first else { return "error \(code)" }
    return first.lowercased() + text.dropFirst()
  }
}

/// An `fsync` of one descriptor running on a thread of its own, not a
/// worker of the pool: blocked in the kernel, it uses no CPU, and as a
/// worker it would keep one from encoding the next output. ``wait()``
/// gives its `errno` (0 when it succeeded). Where no thread can be
/// started, the flush runs in ``wait()``.
private final class PendingFlush {
  /// What the flushing thread hands back.
  private final class Outcome: @unchecked Sendable {
    // Safe: `error` and `done` are touched only under `monitor`.
    let monitor = Monitor()
    var error: Int32 = 0
    var done = false

    func finish(_ e: Int32) {
      monitor.withLock {
        error = e
        done = true
      }
      monitor.broadcast()
    }
  }

  private let outcome: Outcome
  private let fd: Int32
  private let started: Bool

  init(fd: Int32) {
    let outcome = Outcome()
    self.outcome = outcome
    self.fd = fd
    started = ThreadStart.detached { outcome.finish(fsync(fd) == 0 ? 0 : errno) }
  }

  /// Waits for the flush (once; later calls give the same result).
  func wait() -> Int32 {
    if !started && !outcome.monitor.withLock({ outcome.done }) { outcome.finish(fsync(fd) == 0 ? 0 : errno) }
    outcome.monitor.lock()
    defer { outcome.monitor.unlock() }
    while !outcome.done { outcome.monitor.wait() }
    return outcome.error
  }
}

/// Bytes bound for a file written with direct I/O (`O_DIRECT`), gathered
/// in a buffer aligned to ``alignment`` and written in whole blocks, so
/// that every direct write starts and ends on a block boundary from an
/// aligned address (the kernel's rule). Owns the buffer: the only unsafe
/// pointer of the outputs.
final class DirectStaging {
  /// A multiple of the usual device block sizes (512 B, 4 KiB).
  static let alignment = 4096
  let capacity: Int
  private let buffer: UnsafeMutableRawPointer
  private(set) var count = 0

  init(capacity: Int = 4 << 20) {
    self.capacity = max(Self.alignment, capacity / Self.alignment * Self.alignment)
    buffer = .allocate(byteCount: self.capacity, alignment: Self.alignment)
  }

  deinit { buffer.deallocate() }

  var isFull: Bool { count == capacity }

  /// The staged bytes.
  var pending: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: buffer, count: count) }

  /// Copies as much of `bytes` as fits; returns how many it took.
  func append(_ bytes: UnsafeRawBufferPointer) -> Int {
    let n = min(bytes.count, capacity - count)
    if n > 0, let base = bytes.baseAddress { (buffer + count).copyMemory(from: base, byteCount: n) }
    count += n
    return n
  }

  /// Writes the staged bytes' whole blocks with `write` (a `write(2)`:
  /// bytes written, or -1 with `errno`), keeping the partial block and,
  /// after a failure, whatever was not written. Returns an `errno`, or 0.
  func writeBlocks(_ write: (UnsafeRawPointer, Int) -> Int) -> Int32 {
    let whole = count / Self.alignment * Self.alignment
    var off = 0
    var failure: Int32 = 0
    while off < whole {
      let n = write(buffer + off, whole - off)
      if n < 0 {
        if errno == EINTR { continue }
        failure = errno
        break
      }
      if n == 0 {
        failure = EIO
        break
      }
      off += n
    }
    if off > 0 {
      memmove(buffer, buffer + off, count - off)
      count -= off
    }
    return failure
  }
}
