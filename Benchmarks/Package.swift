// swift-tools-version: 6.1
// The benchmarks are a package of their own, beside the main one, so that `swift test` in the
// main package never builds package-benchmark. Run them from this folder:
//
//     swift package benchmark
import PackageDescription

// A path dependency's identity is the name of its folder, which depends on where the repository
// was cloned; derive it instead of writing "main".
let productCatalogPackage = Context.packageDirectory
    .split(separator: "/").dropLast().last.map(String.init) ?? "ProductCatalog"

let benchmarkDependencies: [Target.Dependency] = [
    .product(name: "Benchmark", package: "benchmark"),
    .product(name: "ProductCatalog", package: productCatalogPackage),
    "BenchmarkSupport",
]

let package = Package(
    name: "ProductCatalogBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        // ordo-one/package-benchmark, under its current name. MallocInterposer alone: the
        // default traits also pull in swift-runtime-interposer on Linux with Swift 6.3, which
        // the malloc metrics do not need.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.0.0", traits: ["MallocInterposer"]),
        // Only for the parser comparison in CSVParsing.
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
    ],
    targets: [
        // What the suites share: generated inputs, the cached catalog, metrics and thresholds.
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ProductCatalog", package: productCatalogPackage),
                .product(name: "FeedGenerator", package: productCatalogPackage),
            ],
            path: "Benchmarks/BenchmarkSupport"
        ),
        .executableTarget(
            name: "CSVParsing",
            dependencies: benchmarkDependencies + [.product(name: "CSV", package: "CSV.swift")],
            path: "Benchmarks/CSVParsing",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Import",
            dependencies: benchmarkDependencies,
            path: "Benchmarks/Import",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Not a package-benchmark suite: thousands of different queries, each timed once.
        .executableTarget(
            name: "Keystrokes",
            dependencies: [.product(name: "ProductCatalog", package: productCatalogPackage)],
            path: "Benchmarks/Keystrokes"
        ),
        // Not a package-benchmark suite either: sorted pages and facet counts on a given catalog.
        .executableTarget(
            name: "SortsAndFacets",
            dependencies: [.product(name: "ProductCatalog", package: productCatalogPackage), "InProcessTiming"],
            path: "Benchmarks/SortsAndFacets"
        ),
        // Not a package-benchmark suite either: the store filters on a catalog with stock by store.
        // What the in-process timing tools share: arguments, output, percentiles.
        .target(name: "InProcessTiming", path: "Benchmarks/InProcessTiming"),
        // Collections browsed beside the searches they stand with.
        .executableTarget(
            name: "CollectionBrowsing",
            dependencies: [.product(name: "ProductCatalog", package: productCatalogPackage), "InProcessTiming"],
            path: "Benchmarks/CollectionBrowsing"
        ),
        // A family's variants, as the page opens a family.
        .executableTarget(
            name: "FamilyVariants",
            dependencies: [.product(name: "ProductCatalog", package: productCatalogPackage), "InProcessTiming"],
            path: "Benchmarks/FamilyVariants"
        ),
        .executableTarget(
            name: "StoreFilters",
            dependencies: [.product(name: "ProductCatalog", package: productCatalogPackage), "InProcessTiming"],
            path: "Benchmarks/StoreFilters"
        ),
        .executableTarget(
            name: "Search",
            dependencies: benchmarkDependencies,
            path: "Benchmarks/Search",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
