import Foundation
import OhanaParquet
import Testing

/// Parquet on the command line (README "Parquet"). What a Parquet build
/// reads and writes is checked against pyarrow, DuckDB and Spark in
/// python/tests/test_parquet_cli.py (CI runs it on the release archive's
/// binary, built with the trait); here, what every build must do.
@Suite struct ParquetCLITests {
  /// A Parquet file pyarrow wrote (two rows: name and e-mail), when pyarrow
  /// is importable; else nil.
  static func pyarrowFile(_ path: String) -> Bool {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [
      "python3", "-c",
      "import sys, pyarrow as pa, pyarrow.parquet as pq; pq.write_table(pa.table({'name': ['Ann Lee', 'Ann Lee'], 'email': ['ann@example.org', 'ann@example.org']}), sys.argv[1])",
      path,
    ]
    p.standardError = FileHandle.nullDevice
    guard (try? p.run()) != nil else { return false }
    p.waitUntilExit()
    return p.terminationStatus == 0
  }

  @Test func aBuildWithoutTheTraitSaysSoAndExits69() throws {
    let dir = try TempDir()
    // Parquet's magic at both ends: recognised as Parquet by its bytes,
    // whatever Arrow then makes of it.
    try dir.write("t.parquet", "PAR1 not really a table PAR1")
    let r = try CLI.run(["dedupe", dir.path("t.parquet"), "-o", dir.path("out.parquet")])
    #expect(!FileManager.default.fileExists(atPath: dir.path("out.parquet")))
    if ParquetTable.isAvailable {
      #expect(r.status == 65, "\(r.stderr)")
      #expect(r.stderr.contains("t.parquet"), "\(r.stderr)")
    } else {
      #expect(r.status == 69, "\(r.stderr)")
      #expect(r.stderr.contains("--traits Parquet"), "\(r.stderr)")
    }
  }

  @Test func aParquetFileIsKnownByItsBytesWhateverItsName() throws {
    let dir = try TempDir()
    try dir.write("export.dat", "PAR1....PAR1")
    try dir.write("people.csv", "name,email\nAnn,ann@example.org\n")
    #expect(ParquetTable.isParquet(path: dir.path("export.dat")))
    #expect(!ParquetTable.isParquet(path: dir.path("people.csv")))
    // A directory of part files (Spark's output) is one table; one with a
    // contact file beside them is not.
    try FileManager.default.createDirectory(atPath: dir.path("parts"), withIntermediateDirectories: true)
    try dir.write("parts/part-00000.snappy.parquet", "PAR1....PAR1")
    try dir.write("parts/_SUCCESS", "")
    #expect(ParquetTable.isParquet(path: dir.path("parts")))
    try dir.write("parts/extra.csv", "name\nAnn\n")
    #expect(!ParquetTable.isParquet(path: dir.path("parts")))
  }

  @Test func parquetIsWrittenOnlyAsATablesRows() throws {
    let dir = try TempDir()
    try dir.write("book.vcf", "BEGIN:VCARD\nVERSION:3.0\nFN:Ann Lee\nEMAIL:ann@example.org\nEND:VCARD\n")
    let convert = try CLI.run(["convert", dir.path("book.vcf"), "-o", dir.path("out.parquet")])
    #expect(convert.status == 64, "\(convert.stderr)")
    #expect(convert.stderr.contains("Parquet is written by dedupe and link"), "\(convert.stderr)")
    let dedupe = try CLI.run(["dedupe", dir.path("book.vcf"), "-o", dir.path("out.parquet")])
    #expect(dedupe.status == 64, "\(dedupe.stderr)")
    #expect(dedupe.stderr.contains("give one table"), "\(dedupe.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.path("out.parquet")))
  }

  /// A file pyarrow wrote: read by a Parquet build, refused clearly by
  /// another (never read as CSV text).
  @Test func aRealParquetFile() throws {
    let dir = try TempDir()
    guard Self.pyarrowFile(dir.path("t.parquet")) else {
      print("SKIPPED LOUDLY: python3 with pyarrow is not available to write a Parquet file")
      return
    }
    let r = try CLI.run(["stats", dir.path("t.parquet")])
    if ParquetTable.isAvailable {
      #expect(r.status == 0, "\(r.stderr)")
    } else {
      #expect(r.status == 69, "\(r.stderr)")
      #expect(r.stderr.contains("this build of ohana reads no Parquet"), "\(r.stderr)")
    }
  }
}
