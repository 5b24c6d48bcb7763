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
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "ProductCatalog",
            dependencies: [
                "CSQLite",
                "CZlib",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "catalog",
            dependencies: [
                "ProductCatalog",
                "CatalogServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictness
        ),
        .target(
            name: "CatalogServer",
            dependencies: [
                "ProductCatalog",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            resources: [.embedInCode("Page/index.html"), .embedInCode("Page/app.css"), .embedInCode("Page/app.js")],
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
        .testTarget(
            name: "CatalogServerTests",
            dependencies: [
                "CatalogServer",
                "ProductCatalog",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            swiftSettings: strictness
        ),
    ],
    swiftLanguageModes: [.v6]
)
