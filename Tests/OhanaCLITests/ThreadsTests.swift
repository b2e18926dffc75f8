import Foundation
import Testing

/// `--threads`: a usage error when it is not a count, and the same answer
/// at any count (DESIGN.md section 11: outputs never depend on it).
@Suite("--threads")
struct ThreadsTests {
  @Test func zeroOrGarbageIsAUsageError() throws {
    for bad in ["0", "-1", "many"] {
      let r = try CLI.run(["stats", "x.vcf", "--threads=\(bad)"])
      #expect(r.status == 64)
      #expect(r.stderr.contains("--threads \(bad) is not a number of threads"), "stderr: \(r.stderr)")
    }
  }

  @Test func dedupeGivesTheSameBytesAtEveryThreadCount() throws {
    let dir = try TempDir()
    let book = dir.path("book.vcf")
    let g = try CLI.run(["generate", "--contacts", "3000", "--seed", "5", "--dup-rate", "0.2", "-o", book, "-q"])
    #expect(g.status == 0)
    var outputs: [Data] = []
    var clusters: [Data] = []
    for threads in ["1", "2", "3", "7"] {
      let r = try CLI.run([
        "dedupe", book, "-o", dir.path("m\(threads).vcf"), "--clusters", dir.path("c\(threads).csv"), "--threads", threads, "-q",
      ])
      #expect(r.status == 0, "stderr: \(r.stderr)")
      outputs.append(try dir.read("m\(threads).vcf"))
      clusters.append(try dir.read("c\(threads).csv"))
    }
    #expect(outputs[0].count > 100_000)
    #expect(outputs.allSatisfy { $0 == outputs[0] })
    #expect(clusters.allSatisfy { $0 == clusters[0] })
  }
}
