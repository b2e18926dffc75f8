import Foundation
import Testing

/// Runs the built `ohana` binary the way a user would and captures what it
/// prints. The binary is found next to the test bundle (SwiftPM builds it
/// first because the test target depends on it), else in `.build/debug`.
enum CLI {
  struct Result {
    var status: Int32
    var stdout: Data
    var stderr: String
    var out: String { String(decoding: stdout, as: UTF8.self) }
  }

  static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let datasets = packageRoot.appendingPathComponent("datasets")

  static let binary: URL? = {
    var candidates: [URL] = []
    let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var dir = exe.deletingLastPathComponent()
    for _ in 0..<4 {
      candidates.append(dir.appendingPathComponent("ohana"))
      dir = dir.deletingLastPathComponent()
    }
    candidates.append(Bundle.main.bundleURL.appendingPathComponent("ohana"))
    candidates.append(packageRoot.appendingPathComponent(".build/debug/ohana"))
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  /// Runs `ohana args...` in `directory`, with `stdin` as standard input,
  /// `environment` added to this process's, and started through
  /// `launcher` (a program and its arguments, such as `taskset -c 0`)
  /// when one is given.
  static func run(
    _ args: [String], in directory: URL? = nil, stdin: Data? = nil, environment: [String: String] = [:],
    launcher: [String] = []
  ) throws -> Result {
    guard let binary else {
      Issue.record("the ohana binary was not found; build it with `swift build --product ohana`")
      return Result(status: -1, stdout: Data(), stderr: "")
    }
    let scratch = try TempDir()
    let outURL = scratch.url.appendingPathComponent("stdout")
    let errURL = scratch.url.appendingPathComponent("stderr")
    let inURL = scratch.url.appendingPathComponent("stdin")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: inURL.path, contents: stdin ?? Data())
    let p = Process()
    if let program = launcher.first {
      p.executableURL = URL(fileURLWithPath: program)
      p.arguments = Array(launcher.dropFirst()) + [binary.path] + args
    } else {
      p.executableURL = binary
      p.arguments = args
    }
    if !environment.isEmpty {
      p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    }
    if let directory { p.currentDirectoryURL = directory }
    let outHandle = try FileHandle(forWritingTo: outURL)
    let errHandle = try FileHandle(forWritingTo: errURL)
    let inHandle = try FileHandle(forReadingFrom: inURL)
    p.standardOutput = outHandle
    p.standardError = errHandle
    p.standardInput = inHandle
    try p.run()
    p.waitUntilExit()
    try outHandle.close()
    try errHandle.close()
    try inHandle.close()
    return Result(
      status: p.terminationStatus, stdout: try Data(contentsOf: outURL),
      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
  }

  /// Starts `ohana args`, sends `signal` after `seconds` if it still runs,
  /// and waits: how it ended (by exiting or by a signal) and its status.
  static func runSignalled(_ args: [String], signal: Int32, after seconds: Double) throws
    -> (reason: Process.TerminationReason, status: Int32)
  {
    guard let binary else {
      Issue.record("the ohana binary was not found; build it with `swift build --product ohana`")
      return (.exit, -1)
    }
    let p = Process()
    p.executableURL = binary
    p.arguments = args
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    usleep(UInt32(max(0, seconds) * 1_000_000))
    if p.isRunning { kill(p.processIdentifier, signal) }
    p.waitUntilExit()
    return (p.terminationReason, p.terminationStatus)
  }

  static func json(_ data: Data) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw TestFailure("not a JSON object")
    }
    return object
  }
}

struct TestFailure: Error, CustomStringConvertible {
  var description: String
  init(_ d: String) { description = d }
}

/// A temporary directory, removed when the value goes away.
final class TempDir {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("ohana-cli-tests-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  func read(_ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }

  func write(_ name: String, _ text: String) throws {
    try Data(text.utf8).write(to: url.appendingPathComponent(name))
  }
}

extension Data {
  var lines: [Substring] {
    String(decoding: self, as: UTF8.self).split(separator: "\n")
  }
}

/// Values of the `UID:` lines of vCard text (unfolded lines only).
func vcardUIDs(_ data: Data) -> [String] {
  String(decoding: data, as: UTF8.self).split(separator: "\r\n").compactMap { line in
    line.hasPrefix("UID:") ? String(line.dropFirst(4)) : nil
  }
}

func countOccurrences(of prefix: String, in data: Data) -> Int {
  String(decoding: data, as: UTF8.self).split(separator: "\r\n").filter { $0.hasPrefix(prefix) }.count
}
