// swift-tools-version: 6.1
import PackageDescription

let strictness: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ProductCatalog",
    platforms: [.macOS(.v15)],
    products: [
        // Reading, checking, importing, searching and editing a catalog: system SQLite and zlib only.
        .library(name: "ProductCatalog", targets: ["ProductCatalog"]),
        // Importing straight from an http(s) URL, on AsyncHTTPClient (and so swift-nio).
        .library(name: "ProductCatalogHTTP", targets: ["ProductCatalogHTTP"]),
        // The same import, search and edits on a PostgreSQL server, through postgres-nio.
        .library(name: "ProductCatalogPostgres", targets: ["ProductCatalogPostgres"]),
        // Generated product files for tests and benchmarks; not for apps.
        .library(name: "FeedGenerator", targets: ["FeedGenerator"]),
        .executable(name: "catalog", targets: ["catalog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
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
            dependencies: ["CSQLite", "CZlib", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictness
        ),
        .target(
            name: "ProductCatalogHTTP",
            dependencies: [
                "ProductCatalog",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictness
        ),
        .target(
            name: "ProductCatalogPostgres",
            dependencies: [
                "ProductCatalog",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        .target(
            name: "FeedGenerator",
            dependencies: [.product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "catalog",
            dependencies: [
                "ProductCatalog",
                "ProductCatalogHTTP",
                "ProductCatalogPostgres",
                "FeedGenerator",
                "CatalogServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
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
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            resources: [
                .embedInCode("Page/address.js"),
                .embedInCode("Page/api.js"),
                .embedInCode("Page/app.css"),
                .embedInCode("Page/app.js"),
                .embedInCode("Page/bulk.js"),
                .embedInCode("Page/collections.js"),
                .embedInCode("Page/columns.js"),
                .embedInCode("Page/connection.js"),
                .embedInCode("Page/detail.js"),
                .embedInCode("Page/dialogs.js"),
                .embedInCode("Page/editor.js"),
                .embedInCode("Page/elements.js"),
                .embedInCode("Page/facets.js"),
                .embedInCode("Page/favorites.js"),
                .embedInCode("Page/fields.js"),
                .embedInCode("Page/formats.js"),
                .embedInCode("Page/images.js"),
                .embedInCode("Page/importer.js"),
                .embedInCode("Page/keys.js"),
                .embedInCode("Page/index.html"),
                .embedInCode("Page/list.js"),
                .embedInCode("Page/messages.js"),
                .embedInCode("Page/outbox.js"),
                .embedInCode("Page/pills.js"),
                .embedInCode("Page/remove.js"),
                .embedInCode("Page/schema.js"),
                .embedInCode("Page/selection.js"),
                .embedInCode("Page/sorting.js"),
                .embedInCode("Page/state.js"),
                .embedInCode("Page/sw.js"),
            ],
            swiftSettings: strictness
        ),
        // What the test targets share: reading a child process's output, a seeded random generator,
        // the plain model of word search.
        .target(
            name: "TestSupport",
            dependencies: ["ProductCatalog"],
            path: "Tests/TestSupport",
            swiftSettings: strictness
        ),
        .testTarget(
            name: "ProductCatalogTests",
            dependencies: ["ProductCatalog", "ProductCatalogHTTP", "FeedGenerator", "TestSupport"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "ProductCatalogPostgresTests",
            dependencies: ["ProductCatalogPostgres", "ProductCatalog", "FeedGenerator", "TestSupport"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "CatalogCLITests",
            dependencies: ["catalog", "ProductCatalog", "ProductCatalogPostgres", "FeedGenerator", "TestSupport"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "CatalogServerTests",
            dependencies: [
                "CatalogServer",
                "ProductCatalog",
                "ProductCatalogPostgres",
                "TestSupport",
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
