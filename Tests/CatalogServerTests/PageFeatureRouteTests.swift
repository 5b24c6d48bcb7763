import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import Testing
@testable import CatalogServer

/// The routes behind the page's stars, type suggestions, variants, pictures and import checks.
@Suite(.serialized) struct PageFeatureRouteTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 40)

    @Test(arguments: TestEngine.available) func aStarIsListedFollowsARenameGoesWithADeleteAndSurvivesAnImportThatKeepsItsProduct(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 5))
        try await fixture.application().test(.router) { client in
            func starred() async throws -> [String] { try await client.execute(uri: "/api/favorites", method: .get).productIds() }
            #expect(try await starred() == [])
            #expect(try await client.execute(uri: "/api/favorites/P-003", method: .put).status == .noContent)
            #expect(try await client.execute(uri: "/api/favorites/p-001", method: .put).status == .noContent)
            #expect(try await client.execute(uri: "/api/favorites/NOPE", method: .put).status == .notFound)
            #expect(try await starred() == ["P-001", "P-003"])

            var renamed: [String: Any?] = ["productId": "Q-001", "title": "Renamed"]
            #expect(try await client.send("/api/products/P-001", .put, json: renamed).status == .ok)
            #expect(try await starred() == ["P-003", "Q-001"])
            #expect(try await client.execute(uri: "/api/products/Q-001", method: .delete).status == .noContent)
            #expect(try await starred() == ["P-003"])
            renamed["productId"] = "Q-001"
            #expect(try await client.send("/api/products", .post, json: renamed).status == .created)
            #expect(try await starred() == ["P-003"], "a new product with a deleted product's id is not starred")

            // A replacing import keeps the stars of the products it keeps, and only those.
            try await client.execute(uri: "/api/favorites/Q-001", method: .put)
            try await fixture.importCSV(productsCSV(prefix: "P", count: 5))
            #expect(try await starred() == ["P-003"])
            #expect(try await client.execute(uri: "/api/favorites/P-003", method: .delete).status == .noContent)
            #expect(try await client.execute(uri: "/api/favorites/P-003", method: .delete).status == .noContent)
            #expect(try await starred() == [])
        }
    }

    @Test(arguments: TestEngine.available) func theCatalogSummaryCountsProductsAndHandEditsUntilAReplacingImport(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 4))
        try await fixture.application().test(.router) { client in
            func summary() async throws -> (Int?, Int?) {
                let json = try await client.execute(uri: "/api/catalog", method: .get).json()
                return (json["products"] as? Int, json["handEditsSinceImport"] as? Int)
            }
            #expect(try await summary() == (4, 0))
            #expect(try await client.send("/api/products", .post, json: ["productId": "NEW-1", "title": "New"]).status == .created)
            #expect(try await client.execute(uri: "/api/products/P-000", method: .delete).status == .noContent)
            #expect(try await summary() == (4, 2))
            try await fixture.importCSV(productsCSV(prefix: "P", count: 3))
            #expect(try await summary() == (3, 0))
        }
    }

    @Test(arguments: TestEngine.available) func typesAreTheCatalogsMostUsedFirstAndFollowEdits(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("productId,title,productType\nA,a,Mugs\nB,b,mugs\nC,c,Plates\nD,d,\nE,e,Mugs\n")
        try await fixture.application().test(.router) { client in
            func types() async throws -> [String] {
                let json = try await client.execute(uri: "/api/catalog/types", method: .get).json()
                return try #require(json["types"] as? [String])
            }
            let before = try await types()
            #expect(before == ["Mugs", "Plates"])
            let added = try await client.send("/api/products", .post, json: ["productId": "F", "title": "f", "productType": "Bowls"])
            #expect(added.status == .created)
            let after = try await types()
            #expect(after == ["Mugs", "Bowls", "Plates"])
        }
    }

    @Test(arguments: TestEngine.available) func variantsAreTheProductsOfTheSameFamily(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("productId,title,groupId\nTEE-S,Tee,TEE\nMUG,Mug,\nTEE-L,Tee,TEE\nCAP,Cap,CAPS\nTEE-M,Tee,TEE\n")
        try await fixture.application().test(.router) { client in
            let family = try await client.execute(uri: "/api/products/tee-m/variants", method: .get).productIds()
            #expect(family == ["TEE-L", "TEE-M", "TEE-S"])
            let alone = try await client.execute(uri: "/api/products/MUG/variants", method: .get).productIds()
            #expect(alone == ["MUG"])
            let missing = try await client.execute(uri: "/api/products/NOPE/variants", method: .get)
            #expect(missing.status == .notFound)
        }
    }

    @Test(arguments: TestEngine.available) func aPictureIsStoredBesideTheCatalogServedAndReplaced(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 2))
        try await fixture.application().test(.router) { client in
            func upload(_ bytes: [UInt8], type: String, to id: String = "P-001") async throws -> TestResponse {
                try await client.execute(uri: "/api/products/\(id)/image", method: .put, headers: [.contentType: type], body: ByteBuffer(bytes: bytes))
            }
            let first = try await upload(Self.png, type: "image/png")
            #expect(first.status == .ok)
            let url = try #require(try first.json()["imageURL"] as? String)
            #expect(url.hasPrefix("/images/") && url.hasSuffix(".png"))
            let served = try await client.execute(uri: url, method: .get)
            #expect(served.status == .ok)
            #expect(served.headers[.contentType] == "image/png")
            #expect(Array(served.body.readableBytesView) == Self.png)

            let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 1, count: 20)
            let second = try await upload(jpeg, type: "image/jpeg")
            let newURL = try #require(try second.json()["imageURL"] as? String)
            #expect(newURL.hasSuffix(".jpg") && newURL != url)
            await fixture.imports.pictures.settled()
            #expect(try await client.execute(uri: url, method: .get).status == .notFound, "the replaced picture is deleted")
            #expect(try await client.execute(uri: newURL, method: .get).headers[.contentType] == "image/jpeg")

            #expect(try await upload(Self.png, type: "image/jpeg").status == .unsupportedMediaType)
            #expect(try await upload(Self.png, type: "text/plain").status == .unsupportedMediaType)
            #expect(try await upload(Self.png, type: "image/png", to: "NOPE").status == .notFound)
            #expect(try await client.execute(uri: "/images/..%2Fcatalog.sqlite", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/images/abc.png", method: .get).status == .notFound)

            // An edit that clears the address deletes the picture; so does deleting the product.
            let cleared = try await client.execute(uri: "/api/products/P-001", method: .put, headers: [.contentType: "application/json"],
                                                   body: ByteBuffer(string: #"{"title":"Product 1","imageURL":""}"#))
            #expect(cleared.status == .ok)
            await fixture.imports.pictures.settled()
            #expect(try await client.execute(uri: newURL, method: .get).status == .notFound, "the cleared picture is deleted")
            let third = try await upload(Self.png, type: "image/png", to: "P-000")
            let thirdURL = try #require(try third.json()["imageURL"] as? String)
            #expect(try await client.execute(uri: thirdURL, method: .get).status == .ok)
            #expect(try await client.execute(uri: "/api/products/P-000", method: .delete).status == .noContent)
            await fixture.imports.pictures.settled()
            #expect(try await client.execute(uri: thirdURL, method: .get).status == .notFound, "a deleted product's picture is deleted")
        }
    }

    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 1, count: 20)

    /// A picture belongs to every product that shows it: one product letting go of it keeps it for the others.
    @Test(arguments: TestEngine.available) func aPictureSharedByTwoProductsStaysUntilNeitherShowsIt(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 3))
        try await fixture.application().test(.router) { client in
            let uploaded = try await client.execute(uri: "/api/products/P-000/image", method: .put, headers: [.contentType: "image/png"],
                                                    body: ByteBuffer(bytes: Self.png))
            let url = try #require(try uploaded.json()["imageURL"] as? String)
            for id in ["P-001", "P-002"] {
                let shared = try await client.send("/api/products/\(id)", .put, json: ["title": "Shares", "imageURL": url])
                #expect(shared.status == .ok)
            }
            #expect(try await client.execute(uri: "/api/products/P-000", method: .delete).status == .noContent)
            let repictured = try await client.execute(uri: "/api/products/P-001/image", method: .put, headers: [.contentType: "image/jpeg"],
                                                      body: ByteBuffer(bytes: Self.jpeg))
            #expect(repictured.status == .ok)
            await fixture.imports.pictures.settled()
            #expect(try await client.execute(uri: url, method: .get).status == .ok, "P-002 still shows it")
            let cleared = try await client.send("/api/products/batch", .post, json: ["action": "set", "productIds": ["P-002"], "fields": ["imageURL": ""]])
            #expect(cleared.status == .ok, "\(cleared.text)")
            await fixture.imports.pictures.settled()
            #expect(try await client.execute(uri: url, method: .get).status == .notFound, "no product shows it any more")
        }
    }

    /// Pictures no product shows are swept: after a batch, after a replacing import that drops
    /// their products, and whatever another program or a stopped server left in the folder.
    @Test(arguments: TestEngine.available) func picturesNoProductShowsAreSwept(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 4))
        let folder = fixture.imports.pictures.path
        @Sendable func files() throws -> Set<String> { Set(try FileManager.default.contentsOfDirectory(atPath: folder)) }
        try await fixture.application().test(.router) { client in
            var urls: [String] = []
            for id in ["P-000", "P-001", "P-002", "P-003"] {
                let uploaded = try await client.execute(uri: "/api/products/\(id)/image", method: .put, headers: [.contentType: "image/png"],
                                                        body: ByteBuffer(bytes: Self.png))
                urls.append(try #require(try uploaded.json()["imageURL"] as? String))
            }
            // A batch that sets one address for two products lets go of both their pictures.
            let set = try await client.send("/api/products/batch", .post, json: ["action": "set", "productIds": ["P-000", "P-001"], "fields": ["imageURL": "https://example.com/a.png"]])
            #expect(set.status == .ok, "\(set.text)")
            await fixture.imports.pictures.settled()
            #expect(try files() == Set(urls.suffix(2).map { String($0.dropFirst("/images/".count)) }))
            // A replacing import that keeps only P-003 drops P-002 and its picture.
            _ = try await client.execute(uri: "/api/imports", method: .post, headers: csvUpload,
                                         body: ByteBuffer(string: "productId,title,imageURL\nP-003,Kept,\(urls[3])\n"))
            _ = try await client.execute(uri: "/api/imports/1/events", method: .get)
            await fixture.imports.pictures.settled()
            #expect(try files() == [String(urls[3].dropFirst("/images/".count))])
            // Left by others: a stored-looking picture no product names, and a half-written upload.
            let stray = String(repeating: "ab", count: 16) + ".jpg"
            for name in [stray, ".upload-" + stray, "notes.txt"] { FileManager.default.createFile(atPath: folder + "/" + name, contents: Data([1])) }
            await fixture.imports.pictures.sweepSoon()
            await fixture.imports.pictures.settled()
            #expect(try files() == [String(urls[3].dropFirst("/images/".count)), "notes.txt"])
        }
    }

    /// Uploads for one product at once leave one picture, the one it shows.
    @Test(arguments: TestEngine.available) func concurrentUploadsLeaveOnlyThePictureShown(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 1))
        try await fixture.application().test(.router) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        let response = try await client.execute(uri: "/api/products/P-000/image", method: .put, headers: [.contentType: "image/png"],
                                                                body: ByteBuffer(bytes: Self.png))
                        #expect(response.status == .ok)
                    }
                }
                try await group.waitForAll()
            }
            await fixture.imports.pictures.settled()
            let shown = try #require(try await client.execute(uri: "/api/products/P-000", method: .get).json()["imageURL"] as? String)
            #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.imports.pictures.path) == [String(shown.dropFirst("/images/".count))])
        }
    }

    /// A picture that fills the disk is a 507, and leaves nothing behind. (Needs a small file
    /// system mounted over the pictures folder: skipped where `mount` is not allowed.)
    @Test(arguments: TestEngine.available) func aPictureUploadOnAFullDiskIs507(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 1))
        let folder = fixture.imports.pictures.path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder]) else { return }
        defer { _ = Self.run("/bin/umount", [folder]) }
        try await fixture.application().test(.router) { client in
            let large = Self.jpeg + Array(repeating: 7, count: 1 << 20)
            let full = try await client.execute(uri: "/api/products/P-000/image", method: .put, headers: [.contentType: "image/jpeg"],
                                                body: ByteBuffer(bytes: large))
            #expect(full.status.code == 507, "\(full.text)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
            #expect(try await client.execute(uri: "/api/products/P-000", method: .get).json()["imageURL"] is NSNull)
        }
    }

    /// Runs a program; true when it exited with 0.
    static func run(_ program: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test(arguments: TestEngine.available) func aPictureOrAnEmptyFileIsNamedInThePagesWords(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let png = try await client.execute(uri: "/api/imports/preview", method: .post, headers: csvUpload, body: ByteBuffer(bytes: Self.png))
            #expect(png.status == .unprocessableContent)
            let message = try #require(try png.json()["error"] as? [String: Any])["message"] as? String ?? ""
            #expect(message.hasPrefix("The file is a PNG image, not a CSV file."), "\(message)")
            #expect(!message.contains("--") && !message.contains("/"), "\(message)")

            let header = try await client.execute(uri: "/api/imports/preview", method: .post, headers: csvUpload, body: ByteBuffer(string: "sku_code,name\nA,a\n"))
            let text = try #require(try header.json()["error"] as? [String: Any])["message"] as? String ?? ""
            #expect(text.contains("no productId column") && text.contains("“sku_code”") && !text.contains("--column"), "\(text)")
        }
    }
}
