import Foundation
import Testing

@testable import OhanaCore

/// SHA-256 against FIPS 180-4's examples and the system's `sha256sum`
/// (coreutils), an independent implementation, on random inputs of every
/// length around the block and padding boundaries.
@Suite struct SHA256Tests {
  static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

  @Test func standardExamples() {
    #expect(Self.hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(Self.hex(SHA256.hash([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      Self.hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    var h = SHA256()
    for _ in 0..<1000 { h.update([UInt8](repeating: UInt8(ascii: "a"), count: 1000)) }
    #expect(Self.hex(h.finish()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func agreesWithSha256sum() throws {
    let tool = "/usr/bin/sha256sum"
    try #require(FileManager.default.isExecutableFile(atPath: tool), "coreutils' sha256sum is needed for this test")
    var rng = SystemRandomNumberGenerator()
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sha256-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let lengths = Array(0...130) + [1000, 4095, 65_537]
    var ours: [String] = []
    var paths: [String] = []
    for n in lengths {
      let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
      let url = dir.appendingPathComponent("\(n)")
      try Data(bytes).write(to: url)
      paths.append(url.path)
      // Fed in uneven pieces, as a stream would be.
      var h = SHA256()
      var i = 0
      while i < n {
        let step = min(n - i, 1 + (i * 7) % 97)
        h.update(bytes[i..<(i + step)])
        i += step
      }
      ours.append(Self.hex(h.finish()))
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: tool)
    p.arguments = paths
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    let theirs = out.split(separator: "\n").map { String($0.prefix(64)) }
    #expect(theirs == ours)
  }
}
