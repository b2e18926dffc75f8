import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The tool's outputs never destroy what they write to: a device stays a
/// device, a link stays a link (its target gets the bytes), an existing
/// file keeps its mode. Paths are made by each test in its own directory.
@Suite("ohana outputs")
struct OutputPathTests {
  let example = CLI.datasets.appendingPathComponent("ohana-example.vcf").path

  static func lstatOf(_ path: String) -> stat? {
    var st = stat()
    return lstat(path, &st) == 0 ? st : nil
  }

  static func type(_ path: String) -> mode_t? { lstatOf(path).map { $0.st_mode & S_IFMT } }

  static func readLink(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink(path, &buffer, buffer.count)
    guard n >= 0 else { return nil }
    return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// A small file with duplicates, made by the tool's generator.
  func duplicates(in dir: TempDir) throws -> String {
    let path = dir.path("d.vcf")
    let r = try CLI.run(["generate", "--contacts", "60", "--dup-rate", "0.3", "--seed", "5", "-o", path, "-q"])
    #expect(r.status == 0, "\(r.stderr)")
    return path
  }

  @Test func convertToDevNullLeavesACharacterDevice() throws {
    let dir = try TempDir()
    // First a null device the test makes itself (root only): if the tool
    // replaced it, stop before touching the machine's /dev/null.
    if geteuid() == 0 {
      let node = dir.path("null")
      let device = dev_t(1 << 8 | 3)  // (1, 3) in glibc's makedev encoding
      if mknod(node, S_IFCHR | 0o666, device) == 0 {
        let r = try CLI.run(["convert", example, "-o", node, "--to", "ndjson", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let after = try #require(Self.lstatOf(node))
        try #require(after.st_mode & S_IFMT == S_IFCHR, "the tool replaced a device node: not trying /dev/null")
        #expect(after.st_rdev == device)
      } else {
        print("OutputPathTests: mknod failed (errno \(errno)); the private device node check is NOT RUN")
      }
    }
    let before = try #require(Self.lstatOf("/dev/null"))
    try #require(
      before.st_mode & S_IFMT == S_IFCHR,
      "/dev/null is NOT a character device BEFORE this test: something else on this machine replaced it")
    let r = try CLI.run(["convert", example, "-o", "/dev/null", "--to", "ndjson", "-q"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.isEmpty)
    let after = try #require(Self.lstatOf("/dev/null"))
    #expect(after.st_mode & S_IFMT == S_IFCHR)
    #expect(after.st_rdev == before.st_rdev)
    #expect(after.st_ino == before.st_ino)
  }

  @Test func dedupeClustersThroughASymlink() throws {
    let dir = try TempDir()
    let input = try duplicates(in: dir)
    // The oracle for the bytes: the same run writing clusters to a plain new file.
    let plain = try CLI.run(["dedupe", input, "-o", dir.path("m1.vcf"), "--clusters", dir.path("plain.csv"), "-q"])
    #expect(plain.status == 0, "\(plain.stderr)")
    let expected = try dir.read("plain.csv")
    let lines = expected.lines
    #expect(lines.first == "uid,cluster_id")
    #expect(lines.count == 61)

    try dir.write("real.csv", "stale\n")
    #expect(chmod(dir.path("real.csv"), 0o640) == 0)
    #expect(symlink("real.csv", dir.path("link.csv")) == 0)
    let r = try CLI.run(["dedupe", input, "-o", dir.path("m2.vcf"), "--clusters", dir.path("link.csv"), "-q"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(Self.type(dir.path("link.csv")) == S_IFLNK)
    #expect(Self.readLink(dir.path("link.csv")) == "real.csv")
    let real = try #require(Self.lstatOf(dir.path("real.csv")))
    #expect(real.st_mode & S_IFMT == S_IFREG)
    #expect(real.st_mode & 0o7777 == 0o640)
    #expect(try dir.read("real.csv") == expected)
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
    #expect(names == ["d.vcf", "link.csv", "m1.vcf", "m2.vcf", "plain.csv", "real.csv"])
  }

  @Test func dedupeClustersToOwnStandardOutput() throws {
    let dir = try TempDir()
    let input = try duplicates(in: dir)
    let plain = try CLI.run(["dedupe", input, "-o", dir.path("m.vcf"), "--clusters", dir.path("c.csv"), "-q"])
    #expect(plain.status == 0, "\(plain.stderr)")
    // /dev/fd/1 (not /dev/stdout: a regression could not rename over it).
    let r = try CLI.run(["dedupe", input, "-o", dir.path("m2.vcf"), "--clusters", "/dev/fd/1", "-q"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == (try dir.read("c.csv")))
  }

  /// The clusters file is written beside the merged output when it has a
  /// temporary file of its own; a merged output that fails leaves it as it
  /// was, and no temporary file behind.
  @Test func dedupeFailingMergedOutputLeavesTheClustersWrittenBeside() throws {
    let dir = try TempDir()
    let input = try duplicates(in: dir)
    try dir.write("c.csv", "old clusters\n")
    let r = try CLI.run(["dedupe", input, "-o", dir.path("missing/m.vcf"), "--clusters", dir.path("c.csv"), "-q"])
    #expect(r.status != 0)
    #expect(r.stderr.contains("missing/m.vcf"), "\(r.stderr)")
    #expect(try dir.read("c.csv") == Data("old clusters\n".utf8))
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
    #expect(names == ["c.csv", "d.vcf"])
  }

  /// Both outputs on the same stream are written one after the other, not
  /// beside each other: the merged cards whole, then the clusters.
  @Test func dedupeBothOutputsToOneStreamInTurn() throws {
    let dir = try TempDir()
    let input = try duplicates(in: dir)
    let plain = try CLI.run(["dedupe", input, "-o", dir.path("m.vcf"), "--clusters", dir.path("c.csv"), "-q"])
    #expect(plain.status == 0, "\(plain.stderr)")
    let r = try CLI.run(["dedupe", input, "-o", "-", "--clusters", "/dev/fd/1", "-q"])
    #expect(r.status == 0, "\(r.stderr)")
    let merged = try CLI.run(["dedupe", input, "-o", "-", "-q"])
    #expect(r.stdout == merged.stdout + (try dir.read("c.csv")))
  }

  /// Outputs are all written, then all put in place: one that cannot be
  /// written (its directory is missing) leaves the others as they were.
  @Test func dedupeFailingOutputLeavesTheOthers() throws {
    let dir = try TempDir()
    let input = try duplicates(in: dir)
    try dir.write("m.vcf", "old merged\n")
    try dir.write("e.ndjson", "old explain\n")
    let r = try CLI.run([
      "dedupe", input, "-o", dir.path("m.vcf"), "--explain", dir.path("e.ndjson"),
      "--clusters", dir.path("missing/c.csv"), "-q",
    ])
    #expect(r.status != 0)
    #expect(r.stderr.contains("missing/c.csv"), "\(r.stderr)")
    #expect(try dir.read("m.vcf") == Data("old merged\n".utf8))
    #expect(try dir.read("e.ndjson") == Data("old explain\n".utf8))
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
    #expect(names == ["d.vcf", "e.ndjson", "m.vcf"])
    // The same outputs with a directory that exists: all three written.
    try FileManager.default.createDirectory(atPath: dir.path("missing"), withIntermediateDirectories: false)
    let ok = try CLI.run([
      "dedupe", input, "-o", dir.path("m.vcf"), "--explain", dir.path("e.ndjson"),
      "--clusters", dir.path("missing/c.csv"), "-q",
    ])
    #expect(ok.status == 0, "\(ok.stderr)")
    func text(_ name: String) throws -> String { String(decoding: try dir.read(name), as: UTF8.self) }
    #expect(try text("m.vcf").hasPrefix("BEGIN:VCARD"))
    #expect(try text("e.ndjson").hasPrefix("{\"a\":"))
    #expect(try text("missing/c.csv").hasPrefix("uid,cluster_id\n"))
  }

  @Test func existingOutputKeepsItsMode() throws {
    let dir = try TempDir()
    try dir.write("out.ndjson", "old\n")
    #expect(chmod(dir.path("out.ndjson"), 0o600) == 0)
    let r = try CLI.run(["convert", example, "-o", dir.path("out.ndjson"), "-q"])
    #expect(r.status == 0, "\(r.stderr)")
    let st = try #require(Self.lstatOf(dir.path("out.ndjson")))
    #expect(st.st_mode & 0o7777 == 0o600)
    let written = try dir.read("out.ndjson")
    #expect(written.lines.count == 8)
    let standard = try CLI.run(["convert", example, "-o", "-", "--to", "ndjson", "-q"])
    #expect(written == standard.stdout)
  }

  @Test func newOutputFollowsTheUmask() throws {
    let binary = try #require(CLI.binary, "the ohana binary was not found")
    let dir = try TempDir()
    // A umask the tests' own process does not have, set in a shell around the tool.
    for (mask, expected): (String, mode_t) in [("027", 0o640), ("077", 0o600), ("002", 0o664)] {
      let out = dir.path("u\(mask).ndjson")
      let p = Process()
      p.executableURL = URL(fileURLWithPath: "/bin/sh")
      p.arguments = ["-c", "umask \(mask) && exec \"$0\" \"$@\"", binary.path, "convert", example, "-o", out, "-q"]
      try p.run()
      p.waitUntilExit()
      #expect(p.terminationStatus == 0)
      #expect(Self.lstatOf(out).map { $0.st_mode & 0o7777 } == expected, "umask \(mask)")
    }
  }

  @Test func reportThroughADanglingLink() throws {
    let dir = try TempDir()
    #expect(symlink("report.json", dir.path("r")) == 0)
    let r = try CLI.run(["process", example, "-o", dir.path("o.vcf"), "--report", dir.path("r"), "-q"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(Self.type(dir.path("r")) == S_IFLNK)
    #expect(Self.type(dir.path("report.json")) == S_IFREG)
    let json = try CLI.json(try dir.read("report.json"))
    #expect((json["output"] as? [String: Any])?["contacts"] as? Int == 8)
  }

  @Test func directoryOutputIsAClearError() throws {
    let dir = try TempDir()
    let r = try CLI.run(["convert", example, "-o", dir.url.path, "--to", "ndjson", "-q"])
    #expect(r.status == 73)
    #expect(r.stderr.contains("is a directory"))
  }

  @Test func processHelpShowsTheRegionDefault() throws {
    let r = try CLI.run(["process", "--help"])
    #expect(r.status == 0)
    let help = r.out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    #expect(help.contains("e.g. US, GB, DE). (default: US)"))
    #expect(!help.contains("RegionName"))
    for verb in ["convert", "dedupe", "phone", "stats", "generate"] {
      let h = try CLI.run([verb, "--help"])
      #expect(h.status == 0)
      #expect(!h.out.contains("Name("), "\(verb) --help shows a type in a default")
    }
  }
}

/// `ohana dedupe` builds the pairs' evidence and the merge's provenance
/// only for the outputs that write them; what it writes must not depend on
/// which other outputs were asked for.
@Suite("ohana dedupe: evidence only where written")
struct DedupeEvidenceTests {
  @Test func explainIsTheSameWhateverTheMergedFormat() throws {
    let dir = try TempDir()
    let sample = CLI.datasets.appendingPathComponent("sample-1000.vcf").path
    let a = try CLI.run(["dedupe", sample, "-o", dir.path("m.vcf"), "--explain", dir.path("a.ndjson"), "-q"])
    #expect(a.status == 0, "\(a.stderr)")
    let b = try CLI.run(["dedupe", sample, "-o", dir.path("m.ndjson"), "--explain", dir.path("b.ndjson"), "-q"])
    #expect(b.status == 0, "\(b.stderr)")
    let explained = try dir.read("a.ndjson")
    #expect(explained == (try dir.read("b.ndjson")))
    // Every accepted pair names the keys it shares (a vCard output alone
    // would have left them out).
    let lines = String(decoding: explained, as: UTF8.self).split(separator: "\n")
    #expect(lines.count > 100)
    for line in lines {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let keys = try #require(object["keys"] as? [String], "\(line)")
      #expect(!keys.isEmpty, "\(line)")
    }
    // The merged contacts are the same in both formats: as many cards as lines.
    let cards = String(decoding: try dir.read("m.vcf"), as: UTF8.self).components(separatedBy: "BEGIN:VCARD").count - 1
    #expect(cards == String(decoding: try dir.read("m.ndjson"), as: UTF8.self).split(separator: "\n").count)
  }
}
