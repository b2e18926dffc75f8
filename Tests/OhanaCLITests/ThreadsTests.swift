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

  static let counts = ["1", "2", "3", "4", "7"]

  /// The generator, dedupe, process and the store's first and later runs
  /// give the same bytes at 1, 2, 3, 4 and 7 threads (the oracle: the run
  /// at one thread, the engine's serial path).
  @Test func everyVerbGivesTheSameBytesAtEveryThreadCount() throws {
    let dir = try TempDir()
    var books: [Data] = []
    for t in Self.counts {
      let g = try CLI.run([
        "generate", "--contacts", "4000", "--seed", "5", "--dup-rate", "0.2", "-o", dir.path("book\(t).vcf"),
        "--truth", dir.path("truth\(t).csv"), "--threads", t, "-q",
      ])
      #expect(g.status == 0, "stderr: \(g.stderr)")
      books.append(try dir.read("book\(t).vcf") + (try dir.read("truth\(t).csv")))
    }
    #expect(books[0].count > 800_000)
    #expect(books.allSatisfy { $0 == books[0] }, "generate differs between thread counts")
    let book = dir.path("book1.vcf")
    // A second day: the first 2,000 cards of another seed.
    let g2 = try CLI.run(["generate", "--contacts", "2000", "--seed", "6", "--dup-rate", "0.2", "-o", dir.path("day2.vcf"), "-q"])
    #expect(g2.status == 0)

    var outputs: [String: [Data]] = [:]
    for t in Self.counts {
      let runs: [(String, [String], [String])] = [
        ("dedupe", ["dedupe", book, "-o", dir.path("m\(t).vcf"), "--clusters", dir.path("c\(t).csv")], ["m\(t).vcf", "c\(t).csv"]),
        (
          "process",
          ["process", book, "-o", dir.path("p\(t).ndjson"), "--format-phones", "e164", "--dedupe", "--sort", "family"],
          ["p\(t).ndjson"]
        ),
        ("store first", ["dedupe", book, "--store", dir.path("s\(t).sqlite"), "-o", dir.path("s1-\(t).vcf")], ["s1-\(t).vcf"]),
        (
          "store later",
          ["dedupe", dir.path("day2.vcf"), "--store", dir.path("s\(t).sqlite"), "-o", dir.path("s2-\(t).vcf"), "--changes",
           dir.path("ch\(t).ndjson")],
          ["s2-\(t).vcf", "ch\(t).ndjson"]
        ),
      ]
      for (name, args, files) in runs {
        let r = try CLI.run(args + ["--threads", t, "-q"])
        #expect(r.status == 0, "\(name) at \(t) threads: \(r.stderr)")
        outputs[name, default: []].append(try files.reduce(Data()) { $0 + (try dir.read($1)) })
      }
    }
    for (name, all) in outputs {
      #expect(all.count == Self.counts.count)
      #expect(all[0].count > 10_000, "\(name): \(all[0].count) bytes")
      #expect(all.allSatisfy { $0 == all[0] }, "\(name) differs between thread counts")
    }
  }

  /// The first CPU this process may run on (`Cpus_allowed_list` of
  /// `/proc/self/status`).
  static func firstAllowedCPU() throws -> String {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
    let list = line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
    return String(list.prefix { $0.isNumber })
  }

  /// The phase lines' `busy-peak` and `threads` (OHANA_TRACE_PHASES).
  static func traced(_ stderr: String) -> (peak: Int, threads: Int, lines: Int) {
    var peak = 0, threads = 0, lines = 0
    for line in stderr.split(separator: "\n") where line.hasPrefix("phase ") {
      let words = line.split(separator: " ")
      func after(_ key: String) -> Int { words.firstIndex(of: Substring(key)).flatMap { Int(words[$0 + 1]) } ?? -1 }
      peak = max(peak, after("busy-peak"))
      threads = max(threads, after("threads"))
      lines += 1
    }
    return (peak, threads, lines)
  }

  /// Under an affinity mask of one CPU, the engine runs one worker and
  /// starts no pool thread; with `--threads 3` on that CPU, at most three
  /// threads ever run pieces at once, though the process has up to five
  /// (the main thread, the pool's two, the writer's third producer while
  /// the main thread writes the blocks out, and one more while a second
  /// output is written beside the first). The counts come from the process itself
  /// (`/proc/self/task`, read at every phase mark), the clusters from a
  /// run without the mask.
  @Test func oneCPUMeansOneWorkerAndThreadsThreeMeansAtMostThree() throws {
    let dir = try TempDir()
    let book = dir.path("book.vcf")
    let g = try CLI.run(["generate", "--contacts", "20000", "--seed", "9", "--dup-rate", "0.2", "-o", book, "-q"])
    #expect(g.status == 0)
    let free = try CLI.run(["dedupe", book, "-o", dir.path("m.vcf"), "--clusters", dir.path("c.csv"), "-q"])
    #expect(free.status == 0, "stderr: \(free.stderr)")
    let cpu = try Self.firstAllowedCPU()
    let taskset = ["/usr/bin/taskset", "-c", cpu]
    try #require(FileManager.default.isExecutableFile(atPath: taskset[0]), "taskset (util-linux) is needed for this test")
    let trace = ["OHANA_TRACE_PHASES": "1"]
    for (extra, maxPeak, maxThreads) in [([String](), 1, 2), (["--threads", "3"], 3, 5)] {
      let name = extra.isEmpty ? "one" : "three"
      let r = try CLI.run(
        ["dedupe", book, "-o", dir.path("\(name).vcf"), "--clusters", dir.path("\(name).csv"), "-q"] + extra,
        environment: trace, launcher: taskset)
      #expect(r.status == 0, "stderr: \(r.stderr)")
      let seen = Self.traced(r.stderr)
      #expect(seen.lines >= 5, "no phase lines: \(r.stderr)")
      #expect(seen.peak >= 1 && seen.peak <= maxPeak, "\(name): busy-peak \(seen.peak)")
      #expect(seen.threads >= 1 && seen.threads <= maxThreads, "\(name): \(seen.threads) threads")
      #expect(try dir.read("\(name).csv") == (try dir.read("c.csv")))
    }
  }
}
