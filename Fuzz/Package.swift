// swift-tools-version: 6.1
// The libFuzzer target for the CSV reader, kept out of the main package's build and tests.
//
//   swift build -c debug --sanitize=fuzzer --sanitize=address
//   .build/debug/CSVReaderFuzzer -max_total_time=600 corpus/
import PackageDescription

// A path dependency's identity is the name of its folder, which depends on where the repository
// was cloned; derive it instead of writing it.
let productCatalogPackage = Context.packageDirectory
    .split(separator: "/").dropLast().last.map(String.init) ?? "ProductCatalog"

let package = Package(
    name: "ProductCatalogFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "CSVReaderFuzzer",
            dependencies: [.product(name: "ProductCatalog", package: productCatalogPackage)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
