// swift-tools-version: 6.1
// An app's view of ProductCatalog: it depends on the library alone, so its build compiles
// SQLite's and zlib's Swift wrappers and nothing of swift-nio, AsyncHTTPClient or Hummingbird.
//
//     swift run --package-path Examples/ImportAndSearch ImportAndSearch SampleData/products.csv
import PackageDescription

// A path dependency's identity is the name of its folder, which depends on where the repository
// was cloned; derive it instead of writing it.
let productCatalogPackage = Context.packageDirectory
    .split(separator: "/").dropLast(2).last.map(String.init) ?? "ProductCatalog"

let package = Package(
    name: "ImportAndSearch",
    platforms: [.macOS(.v15), .iOS(.v17)],
    dependencies: [
        .package(path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "ImportAndSearch",
            dependencies: [.product(name: "ProductCatalog", package: productCatalogPackage)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
