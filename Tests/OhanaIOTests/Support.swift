import Foundation
import OhanaCore
import Testing

@testable import OhanaIO

/// Reads vCard / CSV / NDJSON text given inline.
func read(_ text: String, format: ContactFormat? = nil, chunkSize: Int = 1 << 20, strict: Bool = false) throws
  -> ReadResult
{
  try ContactIO.read(
    bytes: Array(text.utf8), format: format, options: ReadOptions(strict: strict, chunkSize: chunkSize))
}

func contacts(_ text: String, format: ContactFormat? = nil, chunkSize: Int = 1 << 20) throws -> [Contact] {
  try read(text, format: format, chunkSize: chunkSize).table.contacts
}

func written(_ table: ContactTable, _ format: ContactFormat) throws -> String {
  var out: [UInt8] = []
  try ContactIO.write(table, format: format, to: &out)
  return String(decoding: out, as: UTF8.self)
}

/// CRLF-joined card text.
func card(_ lines: String...) -> String {
  card(lines)
}

func card(_ lines: [String]) -> String {
  lines.joined(separator: "\r\n") + "\r\n"
}

/// The shared corpus folder, or nil (with a notice) when it is absent.
func corpusDirectory(filePath: String = #filePath) -> URL? {
  // Tests/OhanaIOTests/Support.swift → repo root → its parent → shared/corpus/vcard
  let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent(
    "../../../shared/corpus/vcard"
  ).standardized
  var isDir: ObjCBool = false
  guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue else {
    print("notice: vCard corpus not found at \(url.path); corpus tests skipped")
    return nil
  }
  return url
}

enum FileManagerShim {
  static func mkdir(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }
  static func list(_ path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }
}
