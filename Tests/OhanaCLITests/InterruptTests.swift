import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Ctrl-C (SIGINT) and SIGTERM leave nothing behind: the run exits with 130
/// or 143, the destination keeps what it had, and no temporary output or
/// partial store stays in the directory. A leftover of a run killed
/// outright is removed by the next run that writes the same path.
@Suite("interrupts", .serialized)
struct InterruptTests {
  /// A vCard file of about 80 MB (the bundled sample 200 times over), so
  /// that a debug build is still reading or writing when the signal comes.
  func bigInput(_ dir: TempDir) throws -> String {
    let sample = try Data(contentsOf: CLI.datasets.appendingPathComponent("sample-1000.vcf"))
    var big = Data()
    big.reserveCapacity(sample.count * 200)
    for _ in 0..<200 { big.append(sample) }
    let path = dir.path("big.vcf")
    try big.write(to: URL(fileURLWithPath: path))
    return path
  }

  func leftovers(_ dir: TempDir) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.contains(".ohana-tmp-") || $0.contains(".partial-") }
  }

  /// Starts `ohana args`, sends `signal` after `delay` seconds, returns the exit status.
  func interrupted(_ args: [String], signal: Int32, after delay: Double) throws -> Int32 {
    let r = try CLI.runSignalled(args, signal: signal, after: delay)
    #expect(r.reason == .exit, "the process was killed by the signal instead of exiting")
    return r.status
  }


  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
  func convertStoppedLeavesTheOutputAsItWas(signal: Int32, status: Int32) throws {
    let dir = try TempDir()
    let input = try bigInput(dir)
    try dir.write("out.vcf", "original\n")
    for delay in [0.3, 1.5] {
      let s = try interrupted(["convert", input, "-o", dir.path("out.vcf")], signal: signal, after: delay)
      #expect(s == status, "signal \(signal) after \(delay) s: exit \(s) (0 means it finished first: make the input larger)")
      #expect(try dir.read("out.vcf") == Data("original\n".utf8))
      #expect(try leftovers(dir) == [])
    }
  }

  @Test func aFirstStoreRunStoppedLeavesNoStore() throws {
    let dir = try TempDir()
    let input = try bigInput(dir)
    for delay in [0.3, 2.0] {
      let s = try interrupted(["dedupe", input, "--store", dir.path("s.sqlite"), "-o", dir.path("m.vcf")], signal: SIGINT, after: delay)
      #expect(s == 130, "after \(delay) s: exit \(s)")
      #expect(!FileManager.default.fileExists(atPath: dir.path("s.sqlite")))
      #expect(!FileManager.default.fileExists(atPath: dir.path("m.vcf")))
      #expect(try leftovers(dir) == [])
    }
  }

  /// A temporary file whose process is gone (a run killed outright) is
  /// removed by the next run writing the same path; one of a live process
  /// is not touched.
  @Test func leftoversOfDeadRunsAreRemoved() throws {
    let dir = try TempDir()
    let gone = Process()
    gone.executableURL = URL(fileURLWithPath: "/bin/true")
    try gone.run()
    gone.waitUntilExit()
    let deadPID = gone.processIdentifier
    try dir.write(".out.vcf.ohana-tmp-\(deadPID)-abc", "half a file")
    try dir.write(".out.vcf.ohana-tmp-\(getpid())-xyz", "a live run's file")
    try dir.write("s.sqlite.partial-\(deadPID)", "half a store")
    let r = try CLI.run(["convert", CLI.datasets.appendingPathComponent("ohana-example.vcf").path, "-o", dir.path("out.vcf")])
    #expect(r.status == 0)
    #expect(!FileManager.default.fileExists(atPath: dir.path(".out.vcf.ohana-tmp-\(deadPID)-abc")))
    #expect(FileManager.default.fileExists(atPath: dir.path(".out.vcf.ohana-tmp-\(getpid())-xyz")))
    let s = try CLI.run(["dedupe", CLI.datasets.appendingPathComponent("ohana-example.vcf").path, "--store", dir.path("s.sqlite"), "-o", dir.path("m.vcf")])
    #expect(s.status == 0, "stderr: \(s.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.path("s.sqlite.partial-\(deadPID)")))
  }
}
