// swift-tools-version:5.4
//
// libFuzzer targets for Ohana's readers and phone parser: a package of its
// own, so that `swift test` of the main package does not change. Build and
// run through `run.sh TARGET SECONDS` (see README.md); by hand:
//   swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
//   .build/release/fuzz-vcard corpus/vcard -max_total_time=60
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, so find the main
// package's identity from where this manifest lives (any clone name works).
//
// Tools version 5.4 on purpose: from 5.5 on, SwiftPM links an executable
// with `main` renamed to `<module>_main` (so tests can import it), which a
// fuzz target compiled with -parse-as-library does not define; libFuzzer
// brings `main`. The code is still compiled in Swift 6 mode (unsafeFlags
// are allowed in a root package).
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().lastPathComponent.lowercased()

let settings: [SwiftSetting] = [.unsafeFlags(["-swift-version", "6"])]

let package = Package(
  name: "OhanaFuzz",
  dependencies: [.package(path: "../..")],
  targets: [
    .target(
      name: "FuzzSupport",
      dependencies: [.product(name: "OhanaIO", package: root), .product(name: "OhanaCore", package: root)],
      swiftSettings: settings),
    .executableTarget(name: "fuzz-vcard", dependencies: ["FuzzSupport"], swiftSettings: settings),
    .executableTarget(name: "fuzz-csv", dependencies: ["FuzzSupport"], swiftSettings: settings),
    .executableTarget(name: "fuzz-ndjson", dependencies: ["FuzzSupport"], swiftSettings: settings),
    .executableTarget(
      name: "fuzz-phone", dependencies: [.product(name: "OhanaPhone", package: root)], swiftSettings: settings),
  ]
)
