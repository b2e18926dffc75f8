import COhanaCore
import Foundation
import Glibc
import OhanaCore
import Testing

/// The glibc 2.28 floor's stand-ins (Sources/COhanaCore/glibcfloor.c), each
/// against what the C library itself does or says.
@Suite("glibc floor stand-ins")
struct GlibcFloorTests {
  /// arc4random's contract: 32 uniform bits. Over 8,192 draws each bit is
  /// set about 4,096 times (standard deviation 45); a stuck or a biased bit,
  /// or a value that repeats, fails.
  @Test func randomWordsHaveEveryBitUniform() {
    let draws = (0..<8192).map { _ in ohana_floor_arc4random() }
    for bit in 0..<32 {
      let ones = draws.reduce(0) { $0 + Int(($1 >> UInt32(bit)) & 1) }
      #expect((3800...4392).contains(ones), "bit \(bit) set \(ones) times in 8192")
    }
    #expect(Set(draws).count > 8180, "\(8192 - Set(draws).count) repeats")
  }

  @Test func singleThreadedFlagSaysSeveralThreadsMayRun() {
    #expect(ohana_floor_single_threaded_get() == 0)
  }

  /// Where the C library has posix_spawn_file_actions_addchdir_np (glibc
  /// 2.29 and later, as here), the stand-in is it: a child spawned with it
  /// starts in the directory asked for, as `pwd` prints it.
  @Test func spawnChangesDirectoryThroughTheCLibrary() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ohana-floor-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let real = try #require(realpath(dir.path, nil))
    defer { free(real) }
    let expected = String(cString: real)

    var fds: [Int32] = [0, 0]
    try #require(pipe(&fds) == 0)
    var actions = posix_spawn_file_actions_t()
    try #require(posix_spawn_file_actions_init(&actions) == 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    #expect(ohana_floor_posix_spawn_file_actions_addchdir_np(&actions, dir.path) == 0)
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/pwd"), nil]
    defer { argv.forEach { free($0) } }
    let rc = posix_spawn(&pid, "/bin/pwd", &actions, nil, argv, nil)
    close(fds[1])
    try #require(rc == 0, "posix_spawn: \(rc)")
    var output = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = read(fds[0], &buffer, buffer.count)
      if n <= 0 { break }
      output.append(contentsOf: buffer[0..<n])
    }
    close(fds[0])
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    #expect(String(decoding: output, as: UTF8.self) == expected + "\n")
  }

  /// The copies ICU reads in the floor's build hold what tzset(3) leaves in
  /// the C library's own variables, read here by name through dlsym(3).
  @Test func timeZoneCopiesMatchTheCLibrary() throws {
    tzset()
    let zone = try #require(dlsym(nil, "timezone"), "the C library exports no timezone")
    let names = try #require(dlsym(nil, "tzname"), "the C library exports no tzname")
    #expect(ohana_floor_timezone_value() == zone.load(as: Int.self))
    let pair = names.assumingMemoryBound(to: UnsafePointer<CChar>?.self)
    for dst: Int32 in [0, 1] {
      let expected = try #require(pair[Int(dst)])
      #expect(String(cString: ohana_floor_tzname_value(dst)) == String(cString: expected))
    }
  }

  /// An ordinary build needs the glibc its headers came from, and runs on
  /// one no older.
  @Test func floorAndRunningVersionsAreOrdered() {
    func parts(_ s: String) -> [Int] { s.split(separator: ".").compactMap { Int($0) } }
    let floor = parts(CLibrary.glibcFloor)
    let running = parts(CLibrary.glibcRunning)
    #expect(floor.count == 2 && running.count >= 2)
    #expect(!running.lexicographicallyPrecedes(floor), "running \(running) below the floor \(floor)")
  }
}
