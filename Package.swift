// swift-tools-version:6.1
//
// Ohana for Swift: a data-oriented batch engine for contact lists.
// Layers (arrows point down only; see README "Architecture"):
//   L4 ohana (CLI)
//   L3 Ohana (API: data source, providers, selection, signals; re-exports the rest)
//   L2 OhanaProcessors, OhanaIO, OhanaDedupe; OhanaStore (entity store: dedupe over time, SQLite)
//   L1 OhanaCore (store), OhanaPhone (phone numbers), OhanaText (ICU text services)
//   L0 COhanaICU (C shim over the system ICU), COhanaCore (CPU and system helpers), CSQLite (system SQLite)
import Foundation
import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  // OHANA_INTERNAL_CHECKS turns on the store's invariant checks in debug builds.
  .define("OHANA_INTERNAL_CHECKS", .when(configuration: .debug)),
]

// Parquet (README "Parquet"): read and written through Apache Arrow's C++
// library, the one the pyarrow wheel ships with its headers, never a codec
// of our own. Behind the trait `Parquet`:
//   OHANA_ARROW_DIR=$(python3 -c 'import pyarrow; print(pyarrow.__path__[0])') \
//     swift build -c release --product ohana --traits Parquet
// A plain build compiles COhanaParquet without Arrow: every function then
// answers "not built", and nothing new is needed.
let arrowDir = Context.environment["OHANA_ARROW_DIR"].flatMap { $0.isEmpty ? nil : $0 }
let arrowLibraries: [String] = arrowDir.map { dir in
  let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
  // libarrow.so.2600, libparquet.so.2600, libarrow_compute.so.2600: the
  // wheel has no unversioned names to link by.
  return ["arrow", "parquet", "arrow_compute"].compactMap { lib in
    names.filter { $0.hasPrefix("lib\(lib).so.") }.min { $0.count < $1.count }
  }
} ?? []
let parquetCxx: [CXXSetting] =
  arrowDir.map { [.unsafeFlags(["-I\($0)/include", "-DOHANA_PARQUET_REQUIRED"], .when(traits: ["Parquet"]))] }
  ?? [.define("OHANA_PARQUET_REQUIRED", .when(traits: ["Parquet"]))]
let parquetLinker: [LinkerSetting] =
  arrowDir.map { dir in
    [.unsafeFlags(["-L\(dir)"] + arrowLibraries.map { "-l:\($0)" } + ["-Xlinker", "-rpath", "-Xlinker", dir], .when(traits: ["Parquet"]))]
  } ?? []

let package = Package(
  name: "Ohana",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Ohana", targets: ["Ohana"]),
    .library(name: "OhanaCore", targets: ["OhanaCore"]),
    .library(name: "OhanaPhone", targets: ["OhanaPhone"]),
    .library(name: "OhanaText", targets: ["OhanaText"]),
    .library(name: "OhanaProcessors", targets: ["OhanaProcessors"]),
    .library(name: "OhanaIO", targets: ["OhanaIO"]),
    .library(name: "OhanaDedupe", targets: ["OhanaDedupe"]),
    .library(name: "OhanaStore", targets: ["OhanaStore"]),
    .library(name: "OhanaCardDAV", targets: ["OhanaCardDAV"]),
    .library(name: "OhanaParquet", targets: ["OhanaParquet"]),
    .executable(name: "ohana", targets: ["ohana"]),
    // The C interface (Arrow C Data Interface) for Python: python/ builds it with
    // `swift build -c release --product OhanaFFI -Xswiftc -static-stdlib`.
    .library(name: "OhanaFFI", type: .dynamic, targets: ["OhanaFFI"]),
    // Unstable: seeded data and the array-of-objects reference, for tests and Benchmarks/.
    .library(name: "_OhanaTestSupport", targets: ["_OhanaTestSupport"]),
  ],
  traits: [
    .trait(
      name: "Parquet",
      description: "Read and write Parquet through Apache Arrow's C++ library (OHANA_ARROW_DIR: a pyarrow installation)")
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // HTTP for the CardDAV provider (README "Live address books": why this
    // client and not FoundationNetworking's URLSession).
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    // `swift package generate-documentation --target Ohana` builds the DocC
    // catalogs (Sources/*/*.docc); a plugin, linked into nothing.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // MARK: L0 — C shim over the system ICU (libicu-dev, pkg-config icu-uc icu-i18n)
    .target(
      name: "COhanaICU",
      linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
    ),

    // MARK: L0 — the system SQLite (libsqlite3-dev), for the entity store
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

    // MARK: L1 — leaves
    // CPU and system helpers: prefetch, the malloc threshold, starting a file's write-back.
    .target(name: "COhanaCore"),
    .target(name: "OhanaCore", dependencies: ["COhanaCore"], swiftSettings: swiftSettings),
    .target(name: "OhanaPhone", swiftSettings: swiftSettings),
    .target(name: "OhanaText", dependencies: ["COhanaICU", "OhanaCore"], swiftSettings: swiftSettings),

    // MARK: L2 — passes and formats
    .target(
      name: "OhanaProcessors",
      dependencies: ["OhanaCore", "OhanaPhone", "OhanaText"],
      swiftSettings: swiftSettings
    ),
    .target(name: "OhanaIO", dependencies: ["COhanaCore", "OhanaCore", "OhanaText"], swiftSettings: swiftSettings),
    .target(
      name: "OhanaDedupe",
      dependencies: ["COhanaCore", "OhanaCore", "OhanaPhone", "OhanaText", "OhanaProcessors"],
      swiftSettings: swiftSettings
    ),

    // Dedupe over time: contacts and clusters kept in SQLite (stable cluster ids).
    .target(
      name: "OhanaStore",
      dependencies: ["OhanaCore", "OhanaDedupe", "OhanaIO", "CSQLite"],
      swiftSettings: swiftSettings
    ),

    // Parquet tables (README "Parquet"): Arrow's reader and writer behind a
    // C function or two; the Swift side hands the table to the CSV route.
    .target(name: "COhanaParquet", cxxSettings: parquetCxx, linkerSettings: parquetLinker),
    .target(name: "OhanaParquet", dependencies: ["COhanaParquet", "OhanaCore", "OhanaIO"], swiftSettings: swiftSettings),

    // MARK: L3 — the Ohana API
    .target(
      name: "Ohana",
      dependencies: ["OhanaCore", "OhanaPhone", "OhanaText", "OhanaProcessors", "OhanaIO", "OhanaDedupe", "OhanaStore"],
      swiftSettings: swiftSettings
    ),

    // MARK: C interface — Arrow C Data Interface structs and the exported functions (python/)
    .target(name: "COhanaArrow"),
    .target(
      name: "OhanaFFI",
      dependencies: ["COhanaArrow", "OhanaCore", "OhanaPhone", "OhanaIO", "OhanaProcessors", "OhanaDedupe"],
      swiftSettings: swiftSettings
    ),

    // MARK: Dataset generator (stdlib only; used by `ohana generate`)
    // The CardDAV data provider (README "Live address books"): HTTP through
    // async-http-client (SwiftNIO), XML through FoundationXML; the engine itself
    // does not depend on it.
    .target(
      name: "OhanaCardDAV",
      dependencies: [
        "OhanaCore", "OhanaIO", "OhanaPhone", "OhanaDedupe", .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOFoundationCompat", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      swiftSettings: swiftSettings),
    .target(name: "OhanaDatasets", dependencies: ["OhanaCore"], path: "datasets/Generator", swiftSettings: swiftSettings),

    // MARK: L4 — command line
    .executableTarget(
      name: "ohana",
      dependencies: [
        "Ohana", "OhanaCardDAV", "OhanaDatasets", "OhanaParquet", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      // The review page's template, compiled into the binary (no bundle
      // beside it): `PackageResources.review_html` and its kin.
      resources: [
        .embedInCode("Review/Page/review.html"), .embedInCode("Review/Page/review.css"),
        .embedInCode("Review/Page/review.js"),
      ],
      swiftSettings: swiftSettings
    ),

    // MARK: Tests
    .target(name: "_OhanaTestSupport", dependencies: ["Ohana"], path: "Tests/_OhanaTestSupport", swiftSettings: swiftSettings),
    .testTarget(name: "OhanaCoreTests", dependencies: ["COhanaCore", "OhanaCore", "_OhanaTestSupport"], swiftSettings: swiftSettings),
    .testTarget(name: "OhanaPhoneTests", dependencies: ["OhanaPhone"], exclude: ["Fixtures"], resources: [], swiftSettings: swiftSettings),
    .testTarget(name: "OhanaTextTests", dependencies: ["OhanaText"], swiftSettings: swiftSettings),
    .testTarget(name: "OhanaProcessorsTests", dependencies: ["OhanaProcessors", "_OhanaTestSupport"], swiftSettings: swiftSettings),
    .testTarget(
      name: "OhanaIOTests", dependencies: ["OhanaIO", "_OhanaTestSupport"], exclude: ["Fixtures"], swiftSettings: swiftSettings),
    .testTarget(
      name: "OhanaDedupeTests", dependencies: ["OhanaDedupe", "OhanaIO", "OhanaDatasets", "_OhanaTestSupport"],
      swiftSettings: swiftSettings),
    .testTarget(name: "OhanaStoreTests", dependencies: ["OhanaStore", "OhanaIO", "_OhanaTestSupport", "OhanaDatasets"], swiftSettings: swiftSettings),
    .testTarget(name: "OhanaTests", dependencies: ["Ohana", "_OhanaTestSupport"], swiftSettings: swiftSettings),
    .testTarget(name: "OhanaFFITests", dependencies: ["OhanaFFI", "COhanaArrow", "_OhanaTestSupport"], swiftSettings: swiftSettings),
    .testTarget(
      name: "OhanaCLITests", dependencies: ["ohana", "OhanaCardDAV", "OhanaDatasets", "OhanaParquet", "OhanaStore", "_OhanaTestSupport"],
      swiftSettings: swiftSettings),
    .testTarget(name: "OhanaCardDAVTests", dependencies: ["OhanaCardDAV", "OhanaDatasets", "_OhanaTestSupport"], swiftSettings: swiftSettings),
  ],
  cxxLanguageStandard: .cxx20
)
