import Foundation
import Hummingbird
import ProductCatalog

/// The pictures uploaded for products, in a folder beside the catalog (`<db>.images`): stored as
/// they stream in, and deleted only when no product shows them any more.
///
/// A picture belongs to whichever products name it (`/images/<name>`): an edit may give one
/// product another's picture, and a batch may give it to many. So nothing deletes a picture when
/// one product lets go of it; a sweep deletes the files no product names, one pass over the
/// products' `imageURL`s. A sweep runs when the server starts, after every change that can let go
/// of a picture (a new picture, an edit, a batch, a delete) and after every import; requests made
/// while one runs are folded into one more. An upload is written to a hidden file first and kept
/// from sweeps until its product names it, so a sweep never takes a picture being saved.
actor PictureFolder {
    /// The folder the pictures are kept in.
    nonisolated let path: String
    private let catalog: any CatalogEngine
    /// Names being stored: an upload's hidden file, then its picture until the product names it.
    private var pending = Set<String>()
    /// The sweep under way, and whether another was asked for meanwhile.
    private var sweeping: Task<Void, Never>?
    private var sweepAgain = false
    /// Pictures the sweeps deleted, for tests and the server's log.
    private(set) var swept = 0

    init(catalog: any CatalogEngine) {
        self.catalog = catalog
        path = catalog.imagesFolder
    }

    /// Where the served pictures are, as `imageURL` names them.
    static let urlPrefix = "/images/"

    /// The file name in an `imageURL` this server gave out, or nil for any other address.
    static func storedName(_ imageURL: String) -> String? {
        guard imageURL.hasPrefix(urlPrefix) else { return nil }
        let name = imageURL.dropFirst(urlPrefix.count)
        let parts = name.split(separator: ".")
        guard parts.count == 2, parts[0].count == 32, parts[0].allSatisfy(\.isHexDigit), ["jpg", "png"].contains(parts[1]) else { return nil }
        return String(name)
    }

    /// Streams `body` into a new picture of `kind` and returns its name, kept from sweeps until
    /// ``saved(_:)``. 413 past `maxBytes`, 408 when it stalls, 507 when the disk fills, 415 when
    /// its first bytes are not a `kind` file.
    func receive(_ body: RequestBody, kind: ImageKind, maxBytes: Int, stallTimeout: Duration) async throws -> String {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let name = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined() + "." + kind.fileExtension
        let upload = ".upload-" + name
        pending.formUnion([upload, name])
        do {
            _ = try await UploadFile.write(body, to: path + "/" + upload, limit: maxBytes, stallTimeout: stallTimeout,
                                           tooLarge: APIError(.contentTooLarge, "The image is larger than \(maxBytes >> 20) MB; choose a smaller one."))
            guard kind.matches(try Self.firstBytes(of: path + "/" + upload)) else {
                throw APIError(.unsupportedMediaType, "The file is not a \(kind.name) image; choose a JPEG or PNG file.")
            }
            try FileManager.default.moveItem(atPath: path + "/" + upload, toPath: path + "/" + name)
            pending.remove(upload)
            return name
        } catch {
            try? FileManager.default.removeItem(atPath: path + "/" + upload)
            pending.subtract([upload, name])
            throw error
        }
    }

    /// The picture `name` is named by its product now (or was not saved): sweeps may judge it.
    func saved(_ name: String) {
        pending.remove(name)
        sweepSoon()
    }

    /// Asks for a sweep; one under way is followed by one more.
    func sweepSoon() {
        if sweeping != nil {
            sweepAgain = true
            return
        }
        sweeping = Task { await self.runSweeps() }
    }

    /// Waits until no sweep is asked for or under way.
    func settled() async {
        while let sweeping { await sweeping.value }
    }

    private func runSweeps() async {
        repeat {
            sweepAgain = false
            do {
                swept += try await sweep()
            } catch {
                // The catalog could not be read (an import swapping it, a server away): the next change sweeps again.
            }
        } while sweepAgain
        sweeping = nil
    }

    /// Deletes the stored pictures no product names, and uploads a stopped server left half
    /// written; returns how many pictures it deleted.
    private func sweep() async throws -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return 0 }
        let inUse = try await catalog.imageURLs(startingWith: Self.urlPrefix)
        var deleted = 0
        for name in names where !pending.contains(name) {
            let stored = Self.storedName(Self.urlPrefix + name) != nil
            let leftover = name.hasPrefix(".upload-")
            guard leftover || stored && !inUse.contains(Self.urlPrefix + name) else { continue }
            if (try? FileManager.default.removeItem(atPath: path + "/" + name)) != nil, stored { deleted += 1 }
        }
        return deleted
    }

    /// The first eight bytes of the file at `path`.
    private static func firstBytes(of path: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return Array(try handle.read(upToCount: 8) ?? Data())
    }
}
