#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A catalog file and the files beside it that belong to it: SQLite's journal, log and shared
/// memory, an import's lock, build file, word index and sorted runs, a stock import's scratch
/// file, and the pictures folder. No command may write its output (rejects, an export) over any
/// of them: a rejects file named like the catalog would truncate it, one named like its journal
/// would be replayed into it.
public struct CatalogCompanions: Sendable {
    /// The catalog's path with links followed, as imports resolve it.
    public let catalogPath: String

    public init(catalogPath: String) {
        self.catalogPath = Self.absolute((try? FileSystem.resolvingLinks(catalogPath)) ?? catalogPath)
    }

    /// The suffixes of the files that belong to the catalog at `<path>`.
    static let suffixes = ["", "-journal", "-wal", "-shm", ".import-lock", ".importing", ".importing-journal", ".importing.words",
                           ".importing.words-journal", ".importing-stock", ".importing-stock-journal", ".images"]

    /// Throws ``CatalogError/outputOverCatalog(output:catalog:)`` when `output` names the catalog
    /// or one of its companions: by identity (the same device and inode, through any link or
    /// hard link) when it exists, else by its path. Checked before anything is written.
    public func check(output: String) throws(CatalogError) {
        let outputPath = Self.absolute((try? FileSystem.resolvingLinks(output)) ?? output)
        let identity = CatalogFileIdentity.ofFile(at: output)
        for suffix in Self.suffixes {
            let companion = catalogPath + suffix
            if outputPath == companion || (identity != nil && identity == CatalogFileIdentity.ofFile(at: companion)) {
                throw .outputOverCatalog(output: output, catalog: catalogPath)
            }
        }
        // An import's sorted runs (`<db>.importing.run-…`) and the pictures inside the folder.
        if outputPath.hasPrefix(catalogPath + ".importing") || outputPath.hasPrefix(catalogPath + ".images/") {
            throw .outputOverCatalog(output: output, catalog: catalogPath)
        }
    }

    /// `path` made absolute, its folder's links followed (`realpath` of the folder), so that two
    /// spellings of one place compare equal; unchanged when the folder cannot be resolved.
    static func absolute(_ path: String) -> String {
        let folder = FileSystem.directory(of: path)
        let name = path.hasSuffix("/") ? "" : String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        guard let resolved = realpath(folder, nil) else { return path }
        defer { free(resolved) }
        let base = String(cString: resolved)
        return (base == "/" ? "" : base) + "/" + name
    }
}
