// swift-tools-version:6.3
//
// Benchmarks for Ohana for Swift: a nested package, so that the library
// carries no benchmark dependencies. Run from this folder:
//   swift package --allow-writing-to-package-directory benchmark
// or one suite: swift package benchmark --target CoreBenchmarks
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, so find the parent
// package's identity from where this manifest lives (any clone name works).
let parent = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .lastPathComponent.lowercased()

let suites = ["CoreBenchmarks", "PhoneBenchmarks", "TextBenchmarks", "IOBenchmarks", "DedupeBenchmarks"]

let package = Package(
  name: "OhanaBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(path: "../"),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    // Side-by-side sort comparison (Benchmarks/compare/sort/compare.sh): our
    // sort over a names file, timed like the ICU floor and DuckDB baselines.
    .executableTarget(
      name: "ohana-sort-bench",
      dependencies: [
        .product(name: "OhanaText", package: parent),
        .product(name: "OhanaCore", package: parent),
      ],
      path: "compare/sort/OhanaSortBench",
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
  ] + ["core-bench", "core-memory"].map { tool in
    // Plain release executables over the store and the reference.
    .executableTarget(
      name: tool,
      dependencies: [
        .product(name: "Ohana", package: parent),
        .product(name: "_OhanaTestSupport", package: parent),
      ],
      path: "Benchmarks/\(tool)",
      swiftSettings: [.swiftLanguageMode(.v6)]
    )
  } + suites.map { suite in
    .executableTarget(
      name: suite,
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "Ohana", package: parent),
        .product(name: "_OhanaTestSupport", package: parent),
      ],
      path: "Benchmarks/\(suite)",
      swiftSettings: [.swiftLanguageMode(.v6)],
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
  }
)
