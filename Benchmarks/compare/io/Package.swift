// swift-tools-version:6.1
//
// The Swift side of compare.sh: a small release-built harness over OhanaIO.
// The main package is three folders up; its package identity is that
// folder's name (main in the integrator's clone, h-io in a work tree).
import Foundation
import PackageDescription

let root = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../../..").standardized
let identity = root.lastPathComponent.lowercased()

let package = Package(
  name: "ohana-io-compare",
  platforms: [.macOS(.v15)],
  dependencies: [.package(path: "../../..")],
  targets: [
    .executableTarget(
      name: "ohana-io-bench",
      dependencies: [.product(name: "OhanaIO", package: identity), .product(name: "OhanaCore", package: identity)],
      path: "Sources/ohana-io-bench",
      swiftSettings: [.swiftLanguageMode(.v6)]
    )
  ]
)
