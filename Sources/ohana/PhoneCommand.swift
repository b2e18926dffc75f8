import ArgumentParser
import Ohana

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension OhanaCommand {
  /// `ohana phone`: parse, validate and format phone numbers from stdin.
  struct Phone: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Parse, validate and format phone numbers (libphonenumber semantics).",
      discussion: """
        Reads lines `raw<TAB>region` from stdin (region optional) and writes one
        line per input: raw, region, parse_ok, e164, international, national,
        rfc3966, is_valid, number_type. When parse_ok is 0 the format columns
        are empty, is_valid is 0 and number_type holds the parse failure kind.
        """
    )

    @Option(name: .long, help: "Default region for lines without one (CLDR code).")
    var region: String = "US"

    mutating func run() throws {
      guard let defaultRegion = RegionCode(region) else {
        throw ValidationError("Invalid region code: \(region)")
      }
      let engine = PhoneNumberEngine()
      var regions = RegionCache(defaultRegion: defaultRegion)
      var output = [UInt8]()
      output.reserveCapacity(1 << 20)
      var pending = [UInt8]()
      let chunkSize = 1 << 20
      var chunk = [UInt8](repeating: 0, count: chunkSize)
      while true {
        let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, chunkSize) }
        if n < 0 {
          if errno == EINTR { continue }
          throw ValidationError("read error on stdin")
        }
        if n == 0 { break }
        pending.append(contentsOf: chunk[0..<n])
        var lineStart = 0
        while let newline = pending[lineStart...].firstIndex(of: 0x0A) {
          Self.process(pending[lineStart..<newline], engine, &regions, &output)
          lineStart = newline + 1
          if output.count >= 1 << 20 { try Self.flush(&output) }
        }
        pending.removeFirst(lineStart)
      }
      if !pending.isEmpty { Self.process(pending[...], engine, &regions, &output) }
      try Self.flush(&output)
    }

    /// Region codes of the lines, with the last one remembered (inputs
    /// usually repeat a region many times).
    struct RegionCache {
      let defaultRegion: RegionCode
      var lastText: [UInt8] = []
      var last: RegionCode = .unknown

      mutating func region(_ text: ArraySlice<UInt8>) -> RegionCode {
        if text.isEmpty { return defaultRegion }
        if !text.elementsEqual(lastText) {
          lastText = Array(text)
          last = RegionCode(utf8: text) ?? .unknown
        }
        return last
      }
    }

    static func process(
      _ line: ArraySlice<UInt8>, _ engine: PhoneNumberEngine, _ regions: inout RegionCache, _ out: inout [UInt8]
    ) {
      var line = line
      if line.last == 0x0D { line = line.dropLast() }
      let raw: ArraySlice<UInt8>
      var region = regions.defaultRegion
      var regionText: ArraySlice<UInt8> = []
      if let tab = line.firstIndex(of: 0x09) {
        raw = line[line.startIndex..<tab]
        var rest = line[(tab + 1)...]
        if let nextTab = rest.firstIndex(of: 0x09) { rest = rest[rest.startIndex..<nextTab] }
        regionText = rest
        region = regions.region(rest)
      } else {
        raw = line
      }
      out.append(contentsOf: raw)
      out.append(0x09)
      if regionText.isEmpty { region.appendUTF8(to: &out) } else { out.append(contentsOf: regionText) }
      out.append(0x09)
      engine.appendResultColumns(utf8: raw, defaultRegion: region, to: &out)
      out.append(0x0A)
    }

    static func flush(_ out: inout [UInt8]) throws {
      var offset = 0
      while offset < out.count {
        let written = out.withUnsafeBytes { buffer -> Int in
          guard let base = buffer.baseAddress else { return 0 }
          return write(1, base + offset, buffer.count - offset)
        }
        if written < 0 {
          if errno == EINTR { continue }
          throw ValidationError("write error on stdout")
        }
        offset += written
      }
      out.removeAll(keepingCapacity: true)
    }
  }
}
