// swift-tools-version: 6.1
import PackageDescription

let strictness: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ProductCatalog",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ProductCatalog", targets: ["ProductCatalog"]),
        .executable(name: "catalog", targets: ["catalog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "ProductCatalog",
            dependencies: ["CSQLite"],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "catalog",
            dependencies: [
                "ProductCatalog",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "ProductCatalogTests",
            dependencies: ["ProductCatalog"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "CatalogCLITests",
            dependencies: ["catalog", "ProductCatalog"],
            swiftSettings: strictness
        ),
    ],
    swiftLanguageModes: [.v6]
)
