import Foundation
import OhanaCore
import Testing

@testable import OhanaIO

#if canImport(Glibc)
  import Glibc
#endif

/// `OutputTarget`: writing never destroys what the path names. Every path
/// is made by the test in its own temporary directory (FIFOs, links,
/// sockets, a device node when running as root); `/dev/null` is only ever
/// written to. Expectations are the test's own bytes and `lstat` facts.
@Suite("OutputTarget")
struct OutputTargetTests {
  // MARK: Helpers

  /// A fresh directory under /tmp, removed by `cleanup()`.
  struct Scratch {
    let path: String
    init() throws {
      var template = Array("/tmp/ohana-output-tests-XXXXXX".utf8CString)
      let made = template.withUnsafeMutableBufferPointer { p -> Bool in
        guard let base = p.baseAddress else { return false }
        return mkdtemp(base) != nil
      }
      guard made else { throw Failure("mkdtemp failed (errno \(errno))") }
      path = String(cString: template.map { UInt8(bitPattern: $0) })
    }
    func callAsFunction(_ name: String) -> String { path + "/" + name }
    func cleanup() { try? FileManager.default.removeItem(atPath: path) }
    /// Names in the directory, sorted (temporary files would show here).
    func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
  }

  /// Bytes the test writes: a pattern no code under test produces by itself.
  static func pattern(_ count: Int, seed: UInt8) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &+ ($0 >> 8)) }
  }

  static func lstatOf(_ path: String) -> stat? {
    var st = stat()
    return lstat(path, &st) == 0 ? st : nil
  }

  static func type(_ path: String) -> mode_t? { lstatOf(path).map { $0.st_mode & S_IFMT } }
  static func mode(_ path: String) -> mode_t? { lstatOf(path).map { $0.st_mode & 0o7777 } }

  static func contents(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    return readAll(fd)
  }

  static func readAll(_ fd: Int32) -> [UInt8] {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      out.append(contentsOf: buffer[..<n])
    }
    return out
  }

  static func put(_ path: String, _ bytes: [UInt8], mode: mode_t) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode)
    guard fd >= 0 else { throw Failure("cannot create \(path)") }
    defer { close(fd) }
    let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    guard n == bytes.count else { throw Failure("short write to \(path)") }
    guard fchmod(fd, mode) == 0 else { throw Failure("fchmod \(path)") }
  }

  static func readLink(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink(path, &buffer, buffer.count)
    guard n >= 0 else { return nil }
    return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The process's umask, read from /proc (not by setting it: tests run in
  /// parallel in one process).
  static func currentUmask() -> mode_t? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("Umask:") {
      return mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8)
    }
    return nil
  }

  static func writeThrough(_ path: String, _ bytes: [UInt8]) throws {
    let target = try OutputTarget(path: path)
    // Two writes, to check that they append.
    let half = bytes.count / 2
    try target.write(Array(bytes[..<half]))
    try target.write(Array(bytes[half...]))
    try target.commit()
  }

  /// Reads what is written into a FIFO (or accepted on a socket) on a thread
  /// of its own, since opening a FIFO for writing waits for a reader.
  final class Collector: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var bytes: [UInt8] = []
    func start(_ body: @escaping @Sendable () -> [UInt8]) {
      Thread.detachNewThread { [self] in
        bytes = body()
        done.signal()
      }
    }
    /// The bytes read, or nil after `seconds`.
    func wait(seconds: Int) -> [UInt8]? {
      done.wait(timeout: .now() + .seconds(seconds)) == .success ? bytes : nil
    }
  }

  // MARK: Regular files

  @Test func newFileGetsModeFromUmask() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    let expected = Self.pattern(100_000, seed: 1)
    let target = try OutputTarget(path: dir("new.ndjson"))
    #expect(target.method == .replace(existed: false))
    try target.write(expected)
    // Nothing at the path until commit: only the hidden temporary file.
    #expect(Self.type(dir("new.ndjson")) == nil)
    try target.commit()
    #expect(Self.type(dir("new.ndjson")) == S_IFREG)
    #expect(Self.contents(dir("new.ndjson")) == expected)
    let umask = try #require(Self.currentUmask(), "cannot read the umask from /proc/self/status")
    #expect(Self.mode(dir("new.ndjson")) == 0o666 & ~umask)
    #expect(dir.names() == ["new.ndjson"])
  }

  @Test func existingFileKeepsItsMode() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    try Self.put(dir("old.vcf"), Array("old content, longer than the new one ..............\n".utf8), mode: 0o600)
    let before = try #require(Self.lstatOf(dir("old.vcf")))
    let expected = Self.pattern(5000, seed: 2)
    try Self.writeThrough(dir("old.vcf"), expected)
    let after = try #require(Self.lstatOf(dir("old.vcf")))
    #expect(after.st_mode & S_IFMT == S_IFREG)
    #expect(after.st_mode & 0o7777 == 0o600)
    #expect(Self.contents(dir("old.vcf")) == expected)
    // Replaced by rename: a new inode, and no temporary file left behind.
    #expect(after.st_ino != before.st_ino)
    #expect(dir.names() == ["old.vcf"])
  }

  @Test func unusualModeKept() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    try Self.put(dir("g.csv"), [1, 2, 3], mode: 0o640)
    try Self.writeThrough(dir("g.csv"), [9, 8, 7, 6])
    #expect(Self.mode(dir("g.csv")) == 0o640)
    #expect(Self.contents(dir("g.csv")) == [9, 8, 7, 6])
  }

  @Test func ownerKeptWhenRoot() throws {
    guard geteuid() == 0 else {
      print("OutputTargetTests.ownerKeptWhenRoot: NOT RUN (needs root to chown a file)")
      return
    }
    let dir = try Scratch()
    defer { dir.cleanup() }
    try Self.put(dir("owned"), [1], mode: 0o644)
    #expect(chown(dir("owned"), 4321, 8765) == 0)
    try Self.writeThrough(dir("owned"), [2, 3])
    let st = try #require(Self.lstatOf(dir("owned")))
    #expect(st.st_uid == 4321)
    #expect(st.st_gid == 8765)
    #expect(st.st_mode & 0o7777 == 0o644)
    #expect(Self.contents(dir("owned")) == [2, 3])
  }

  @Test func discardLeavesTheOldFile() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    let old = Array("keep me\n".utf8)
    try Self.put(dir("keep.txt"), old, mode: 0o644)
    do {
      let target = try OutputTarget(path: dir("keep.txt"))
      try target.write(Self.pattern(70_000, seed: 3))
      #expect(dir.names().count == 2)  // the temporary file exists meanwhile
      // Dropped without commit(), as when a run fails half-way.
    }
    #expect(Self.contents(dir("keep.txt")) == old)
    #expect(dir.names() == ["keep.txt"])
    let target = try OutputTarget(path: dir("new.txt"))
    try target.write([1, 2])
    target.discard()
    #expect(dir.names() == ["keep.txt"])
  }

  @Test func readOnlyFileRefused() throws {
    guard geteuid() != 0 else {
      print("OutputTargetTests.readOnlyFileRefused: NOT RUN (root may write any file)")
      return
    }
    let dir = try Scratch()
    defer { dir.cleanup() }
    try Self.put(dir("ro.txt"), [1], mode: 0o444)
    #expect(throws: ContactIOError.self) { try OutputTarget(path: dir("ro.txt")) }
    #expect(Self.contents(dir("ro.txt")) == [1])
  }

  // MARK: Links

  @Test func symlinkStaysALinkAndTargetIsReplaced() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    try Self.put(dir("real.csv"), Array("old\n".utf8), mode: 0o604)
    #expect(symlink(dir("real.csv"), dir("link.csv")) == 0)
    let expected = Self.pattern(30_000, seed: 4)
    let target = try OutputTarget(path: dir("link.csv"))
    #expect(target.destination == dir("real.csv"))
    try target.write(expected)
    try target.commit()
    #expect(Self.type(dir("link.csv")) == S_IFLNK)
    #expect(Self.readLink(dir("link.csv")) == dir("real.csv"))
    #expect(Self.type(dir("real.csv")) == S_IFREG)
    #expect(Self.mode(dir("real.csv")) == 0o604)
    #expect(Self.contents(dir("real.csv")) == expected)
    #expect(dir.names() == ["link.csv", "real.csv"])
  }

  @Test func relativeSymlinkChain() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    #expect(mkdir(dir("a"), 0o755) == 0)
    #expect(mkdir(dir("a/b"), 0o755) == 0)
    #expect(mkdir(dir("c"), 0o755) == 0)
    try Self.put(dir("c/file.ndjson"), [0], mode: 0o600)
    // a/b/first -> ../second (= a/second) -> ../c/file.ndjson (= c/file.ndjson)
    #expect(symlink("../second", dir("a/b/first")) == 0)
    #expect(symlink("../c/file.ndjson", dir("a/second")) == 0)
    let expected = Self.pattern(777, seed: 5)
    try Self.writeThrough(dir("a/b/first"), expected)
    #expect(Self.type(dir("a/b/first")) == S_IFLNK)
    #expect(Self.type(dir("a/second")) == S_IFLNK)
    #expect(Self.readLink(dir("a/b/first")) == "../second")
    #expect(Self.readLink(dir("a/second")) == "../c/file.ndjson")
    #expect(Self.contents(dir("c/file.ndjson")) == expected)
    #expect(Self.mode(dir("c/file.ndjson")) == 0o600)
    #expect(dir.names() == ["a", "c"])
    #expect((try? FileManager.default.contentsOfDirectory(atPath: dir("c"))) == ["file.ndjson"])
  }

  @Test func relativeSymlinkBehindDotSegments() throws {
    // The link's relative target is resolved against the link's directory
    // as written in the path ("DIR/./"), not against the working directory.
    let dir = try Scratch()
    defer { dir.cleanup() }
    #expect(symlink("target.txt", dir("l")) == 0)
    try Self.writeThrough(dir.path + "/./l", [4, 5, 6])
    #expect(Self.type(dir("l")) == S_IFLNK)
    #expect(Self.contents(dir("target.txt")) == [4, 5, 6])
  }

  @Test func danglingSymlinkCreatesItsTarget() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    #expect(symlink("missing.vcf", dir("dangling")) == 0)
    let expected = Self.pattern(1234, seed: 6)
    let target = try OutputTarget(path: dir("dangling"))
    #expect(target.method == .replace(existed: false))
    try target.write(expected)
    try target.commit()
    #expect(Self.type(dir("dangling")) == S_IFLNK)
    #expect(Self.readLink(dir("dangling")) == "missing.vcf")
    #expect(Self.type(dir("missing.vcf")) == S_IFREG)
    #expect(Self.contents(dir("missing.vcf")) == expected)
    let umask = try #require(Self.currentUmask())
    #expect(Self.mode(dir("missing.vcf")) == 0o666 & ~umask)
  }

  @Test func linkLoopIsAnError() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    #expect(symlink("y", dir("x")) == 0)
    #expect(symlink("x", dir("y")) == 0)
    #expect(throws: ContactIOError.self) { try OutputTarget(path: dir("x")) }
    #expect(Self.type(dir("x")) == S_IFLNK)
    #expect(Self.type(dir("y")) == S_IFLNK)
    #expect(dir.names() == ["x", "y"])
  }

  @Test func directoryIsAnError() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    #expect(mkdir(dir("d"), 0o755) == 0)
    #expect(symlink("d", dir("to-d")) == 0)
    for path in [dir("d"), dir("d/"), dir("to-d"), dir.path, ""] {
      do {
        _ = try OutputTarget(path: path)
        Issue.record("\(path) was accepted as an output")
      } catch {
        #expect(error.code == .io)
      }
    }
    #expect(Self.type(dir("d")) == S_IFDIR)
    #expect(Self.type(dir("to-d")) == S_IFLNK)
  }

  @Test func dashIsStandardOutput() throws {
    let target = try OutputTarget(path: "-")
    #expect(target.method == .standardOutput)
    #expect(target.fileDescriptor == 1)
    try target.commit()
    // Standard output stays open.
    #expect(fcntl(1, F_GETFD) >= 0)
  }

  // MARK: FIFOs, devices, sockets, descriptors

  @Test func fifoReceivesEverything() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    let fifo = dir("pipe")
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(chmod(fifo, 0o620) == 0)  // a mode the umask would not give
    // A second name for the FIFO, to wake the reader if the first is replaced.
    #expect(link(fifo, dir("pipe-spare")) == 0)
    let expected = Self.pattern(1 << 20, seed: 7)  // far more than a pipe buffer
    let collector = Collector()
    collector.start {
      let fd = open(fifo, O_RDONLY)
      guard fd >= 0 else { return [] }
      defer { close(fd) }
      return OutputTargetTests.readAll(fd)
    }
    var method: OutputTarget.Method?
    do {
      let target = try OutputTarget(path: fifo)
      method = target.method
      for start in stride(from: 0, to: expected.count, by: 100_000) {
        try target.write(Array(expected[start..<min(expected.count, start + 100_000)]))
      }
      try target.commit()
    } catch {
      Issue.record("writing the FIFO failed: \(error)")
    }
    // If the FIFO was not opened for writing, its reader still waits: wake it.
    let poke = open(dir("pipe-spare"), O_WRONLY | O_NONBLOCK)
    if poke >= 0 { close(poke) }
    #expect(method == .direct)
    let received = collector.wait(seconds: 60)
    #expect(received?.count == expected.count)
    #expect(received == expected)
    #expect(Self.type(fifo) == S_IFIFO)
    #expect(Self.mode(fifo) == 0o620)
    #expect(dir.names() == ["pipe", "pipe-spare"])
  }

  @Test func fifoThroughASymlink() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    #expect(mkfifo(dir("p"), 0o600) == 0)
    #expect(link(dir("p"), dir("p-spare")) == 0)
    #expect(symlink("p", dir("to-p")) == 0)
    let expected = Self.pattern(200_000, seed: 8)
    let collector = Collector()
    let fifo = dir("p")
    collector.start {
      let fd = open(fifo, O_RDONLY)
      guard fd >= 0 else { return [] }
      defer { close(fd) }
      return OutputTargetTests.readAll(fd)
    }
    do {
      try Self.writeThrough(dir("to-p"), expected)
    } catch {
      Issue.record("writing through the link to the FIFO failed: \(error)")
    }
    let poke = open(dir("p-spare"), O_WRONLY | O_NONBLOCK)
    if poke >= 0 { close(poke) }
    #expect(collector.wait(seconds: 60) == expected)
    #expect(Self.type(dir("p")) == S_IFIFO)
    #expect(Self.type(dir("to-p")) == S_IFLNK)
  }

  @Test func unixSocketReceivesEverything() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    let path = dir("sock")
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    try #require(listener >= 0)
    defer { close(listener) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, b) in bytes.enumerated() { raw[i] = b }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0, "bind failed (errno \(errno))")
    try #require(listen(listener, 1) == 0)
    let collector = Collector()
    collector.start {
      let fd = accept(listener, nil, nil)
      guard fd >= 0 else { return [] }
      defer { close(fd) }
      return OutputTargetTests.readAll(fd)
    }
    let expected = Self.pattern(500_000, seed: 9)
    let target = try OutputTarget(path: path)
    #expect(target.method == .direct)
    try target.write(expected)
    try target.commit()
    #expect(collector.wait(seconds: 60) == expected)
    #expect(Self.type(path) == S_IFSOCK)
  }

  @Test func ownDescriptorIsWrittenThrough() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let (readEnd, writeEnd) = (ends[0], ends[1])
    let expected = Self.pattern(10_000, seed: 10)  // fits the pipe buffer
    for path in ["/dev/fd/\(writeEnd)", "/proc/self/fd/\(writeEnd)"] {
      let target = try OutputTarget(path: path)
      #expect(target.method == .descriptor(writeEnd))
      try target.write(expected)
      try target.commit()
    }
    // The original descriptor is still open (the target wrote through a duplicate).
    #expect(fcntl(writeEnd, F_GETFD) >= 0)
    close(writeEnd)
    let received = Self.readAll(readEnd)
    close(readEnd)
    #expect(received == expected + expected)
    // /dev/stdout names descriptor 1 (opened only, nothing written).
    let stdout = try OutputTarget(path: "/dev/stdout")
    #expect(stdout.method == .descriptor(1))
    if stdout.method == .descriptor(1) { try stdout.commit() } else { stdout.discard() }
    #expect(fcntl(1, F_GETFD) >= 0)
  }

  @Test func characterDeviceMadeByTheTest() throws {
    guard geteuid() == 0 else {
      print("OutputTargetTests.characterDeviceMadeByTheTest: NOT RUN (mknod needs root)")
      return
    }
    let dir = try Scratch()
    defer { dir.cleanup() }
    let node = dir("null")
    // The null device (1, 3), in glibc's encoding of `makedev`.
    let (major, minor): (UInt64, UInt64) = (1, 3)
    let device = dev_t((major & 0xfff) << 8 | (major & ~0xfff) << 32 | (minor & 0xff) | (minor & ~0xff) << 12)
    guard mknod(node, S_IFCHR | 0o666, device) == 0 else {
      print("OutputTargetTests.characterDeviceMadeByTheTest: NOT RUN (mknod failed, errno \(errno))")
      return
    }
    let before = try #require(Self.lstatOf(node))
    try Self.writeThrough(node, Self.pattern(50_000, seed: 11))
    let after = try #require(Self.lstatOf(node))
    #expect(after.st_mode & S_IFMT == S_IFCHR)
    #expect(after.st_rdev == before.st_rdev)
    #expect(after.st_ino == before.st_ino)
    #expect(dir.names() == ["null"])
  }

  @Test func devNullStaysACharacterDevice() throws {
    let before = try #require(Self.lstatOf("/dev/null"))
    try #require(
      before.st_mode & S_IFMT == S_IFCHR,
      "/dev/null is NOT a character device BEFORE this test: something else on this machine replaced it")
    let target = try OutputTarget(path: "/dev/null")
    guard target.method == .direct else {
      // Never commit a rename over /dev/null: discard and fail.
      target.discard()
      Issue.record("/dev/null would be written by \(target.method), not directly")
      return
    }
    try target.write(Self.pattern(100_000, seed: 12))
    try target.commit()
    let after = try #require(Self.lstatOf("/dev/null"))
    #expect(after.st_mode & S_IFMT == S_IFCHR)
    #expect(after.st_rdev == before.st_rdev)
    #expect(after.st_ino == before.st_ino)
  }

  // MARK: ContactIO.write

  @Test func contactWriteGoesThroughTheTarget() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    let input = Array("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ann Lee\r\nEMAIL:ann@example.com\r\nEND:VCARD\r\n".utf8)
    let table = try ContactIO.read(bytes: input, format: .vcard4).table
    try Self.put(dir("real.ndjson"), [0], mode: 0o600)
    #expect(symlink("real.ndjson", dir("out.ndjson")) == 0)
    try ContactIO.write(table, format: .ndjson, to: dir("out.ndjson"))
    #expect(Self.type(dir("out.ndjson")) == S_IFLNK)
    #expect(Self.mode(dir("real.ndjson")) == 0o600)
    let text = String(decoding: Self.contents(dir("real.ndjson")) ?? [], as: UTF8.self)
    #expect(text.hasPrefix("{"))
    #expect(text.contains("\"fullName\":\"Ann Lee\""))
    #expect(text.contains("ann@example.com"))
    #expect(text.hasSuffix("}\n"))
    #expect(dir.names() == ["out.ndjson", "real.ndjson"])
  }

  /// Writes past several write-back starts (every `writebackBytes`), in
  /// uneven pieces: the file holds exactly the test's bytes, in order.
  @Test func largeOutputAcrossWritebackStarts() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    let total = Int(OutputTarget.writebackBytes) * 3 + 12_345
    let bytes = Self.pattern(total, seed: 7)
    let out = try OutputTarget(path: dir("big.bin"))
    var at = 0
    var piece = 1
    while at < total {
      let n = min(total - at, piece)
      try bytes[at..<(at + n)].withUnsafeBytes { try out.write($0) }
      at += n
      piece = piece * 3 % 5_000_011 + 1  // 1 byte to about 5 MB
    }
    try out.commit()
    #expect(Self.contents(dir("big.bin")) == bytes)
    #expect(dir.names() == ["big.bin"])
  }

  /// A flush started in the background (`startFlush`) changes nothing the
  /// path shows: the old file stays until the commit, which then puts
  /// exactly the test's bytes in place; bytes written after the flush began
  /// are kept too; a discarded output leaves the old file and no temporary.
  @Test func backgroundFlushKeepsTheCommitRules() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    let old = Array("old\n".utf8)
    try Self.put(dir("a.bin"), old, mode: 0o644)
    let first = Self.pattern(3 << 20, seed: 3), more = Self.pattern(70_001, seed: 9)

    let out = try OutputTarget(path: dir("a.bin"))
    try out.write(first)
    out.startFlush()
    out.startFlush()  // a second call changes nothing
    #expect(Self.contents(dir("a.bin")) == old)
    try out.write(more)  // after the flush began: the commit flushes again
    out.startFlush()
    try out.commit()
    #expect(Self.contents(dir("a.bin")) == first + more)
    #expect(dir.names() == ["a.bin"])

    do {
      let dropped = try OutputTarget(path: dir("a.bin"))
      try dropped.write(Self.pattern(1000, seed: 5))
      dropped.startFlush()
    }  // discarded while (or after) its flush runs
    #expect(Self.contents(dir("a.bin")) == first + more)
    #expect(dir.names() == ["a.bin"])

    // Not a temporary file: nothing to flush, the bytes arrive as written.
    let null = try OutputTarget(path: "/dev/null")
    try null.write(first)
    null.startFlush()
    try null.commit()
    #expect(Self.type("/dev/null") == S_IFCHR)
  }

  /// Whether `path` is on ext4, whose files take direct I/O: the type of
  /// the longest mount point of `/proc/self/mounts` that holds it.
  static func onExt4(_ path: String) -> Bool {
    guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return false }
    var best = (point: "", type: "")
    for line in mounts.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count > 2 else { continue }
      let point = String(fields[1])
      let holds = point == "/" || path == point || path.hasPrefix(point + "/")
      if holds && point.count > best.point.count { best = (point, String(fields[2])) }
    }
    return best.type == "ext4"
  }

  /// Direct I/O from `directIOFrom` bytes on (at once, at an odd offset,
  /// past a whole staging buffer, never), in uneven pieces: the file holds
  /// exactly the test's bytes, and no temporary file is left.
  @Test func directWritesHoldExactlyTheBytes() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    let total = (19 << 20) + 4321
    let bytes = Self.pattern(total, seed: 11)
    var sawDirect = false
    for from: Int64 in [0, 5_000, 9 << 20, .max] {
      let out = try OutputTarget(path: dir("d.bin"), directIOFrom: from)
      var at = 0
      var piece = 7
      while at < total {
        let n = min(total - at, piece)
        try bytes[at..<(at + n)].withUnsafeBytes { try out.write($0) }
        sawDirect = sawDirect || out.writesDirectly
        #expect(!(from == .max && out.writesDirectly))
        at += n
        piece = piece * 5 % 3_000_017 + 1  // 1 byte to about 3 MB
      }
      try out.commit()
      let same = Self.contents(dir("d.bin")) == bytes  // (not printed whole on failure: 19 MB)
      #expect(same, "direct I/O from \(from)")
      #expect(dir.names() == ["d.bin"])
    }
    if Self.onExt4(dir.path) {
      #expect(sawDirect, "ext4 takes direct I/O: the staged path should have run")
    } else if !sawDirect {
      print("NOTICE: the file system under /tmp refused direct I/O; only the fallback to ordinary writes was tested")
    }
  }

  /// A direct write refused midway (`EINVAL`, as from a device whose
  /// blocks are larger than 4 KiB): the staged bytes and the rest go
  /// through the page cache, once each, in order.
  @Test func directWriteRefusedMidwayFallsBack() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    let bytes = Self.pattern((13 << 20) + 999, seed: 21)
    for refusedCall in [1, 2] {
      let out = try OutputTarget(path: dir("g.bin"), directIOFrom: 0)
      var calls = 0
      out.directWrite = { fd, p, n in
        calls += 1
        if calls == refusedCall {
          errno = EINVAL
          return -1
        }
        return Glibc.write(fd, p, n)
      }
      var at = 0
      while at < bytes.count {
        let n = min(bytes.count - at, 1_000_003)
        try bytes[at..<(at + n)].withUnsafeBytes { try out.write($0) }
        at += n
      }
      #expect(!out.writesDirectly)
      try out.commit()
      let same = Self.contents(dir("g.bin")) == bytes
      #expect(same, "refused at direct write \(refusedCall)")
      if Self.onExt4(dir.path) {
        #expect(calls == refusedCall)
      } else if calls == 0 {
        print("NOTICE: the file system under /tmp refused direct I/O: the refusal midway was not exercised")
      }
    }
    #expect(dir.names() == ["g.bin"])
  }

  /// Direct I/O ended by a background flush (bytes written after it go
  /// through the page cache), or by handing out the descriptor (the
  /// caller's unaligned writes then work), or dropped midway (no temporary
  /// file, the old content stays).
  @Test func directWritesAcrossAFlushALentDescriptorAndADiscard() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    let first = Self.pattern((9 << 20) + 77, seed: 1), more = Self.pattern((5 << 20) + 3, seed: 2)
    let tail = Self.pattern(1234, seed: 4)
    func put(_ fd: Int32, _ bytes: [UInt8]) -> Int { bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }

    let flushed = try OutputTarget(path: dir("e.bin"), directIOFrom: 0)
    try flushed.write(first)
    flushed.startFlush()
    #expect(!flushed.writesDirectly)
    try flushed.write(more)
    #expect(put(flushed.fileDescriptor, tail) == tail.count)
    try flushed.commit()
    let flushedSame = Self.contents(dir("e.bin")) == first + more + tail
    #expect(flushedSame)

    let lent = try OutputTarget(path: dir("f.bin"), directIOFrom: 0)
    try lent.write(first)  // two staging buffers written, about 1 MB staged
    let fd = lent.fileDescriptor  // the staged bytes written, direct I/O off
    #expect(!lent.writesDirectly)
    #expect(put(fd, tail) == tail.count)
    try lent.write(more)
    try lent.commit()
    let lentSame = Self.contents(dir("f.bin")) == first + tail + more
    #expect(lentSame)

    do {
      let dropped = try OutputTarget(path: dir("f.bin"), directIOFrom: 0)
      try dropped.write(more)
    }
    let keptSame = Self.contents(dir("f.bin")) == first + tail + more
    #expect(keptSame)
    #expect(dir.names() == ["e.bin", "f.bin"])
  }

  /// A frame written to a target is not in place until the target is
  /// committed; dropped uncommitted, the old file stays.
  @Test func contactWriteToATargetWaitsForTheCommit() throws {
    let dir = try Scratch()
    defer { dir.cleanup() }
    let input = Array("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ann Lee\r\nEND:VCARD\r\n".utf8)
    let table = try ContactIO.read(bytes: input, format: .vcard4).table
    try Self.put(dir("a.ndjson"), Array("old\n".utf8), mode: 0o644)
    do {
      let target = try OutputTarget(path: dir("a.ndjson"))
      try ContactIO.write(Frame(table: table), format: .ndjson, to: target)
      #expect(Self.contents(dir("a.ndjson")) == Array("old\n".utf8))
    }  // discarded
    #expect(Self.contents(dir("a.ndjson")) == Array("old\n".utf8))
    #expect(dir.names() == ["a.ndjson"])
    let target = try OutputTarget(path: dir("a.ndjson"))
    try ContactIO.write(Frame(table: table), format: .ndjson, to: target)
    try target.commit()
    let text = String(decoding: Self.contents(dir("a.ndjson")) ?? [], as: UTF8.self)
    #expect(text.contains("\"fullName\":\"Ann Lee\""))
    #expect(dir.names() == ["a.ndjson"])
  }
}
