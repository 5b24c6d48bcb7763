import ProductCatalog

extension CatalogError {
    /// What the command line says: the library's facts and what to do, naming `--db`.
    var commandMessage: String {
        switch self {
        case .noCatalog(let path):
            "\(description); create one with `catalog import FILE --db \(path)`"
        case .notACatalog:
            "\(description) (choose another --db path)"
        case .notAFile:
            "\(description) Give --db the path of a catalog file, or of a new one to create."
        case .readOnly(let path):
            "\(description) Make it writable (chmod u+w \(path)) or choose another --db path."
        case .unfinishedWrite(let path):
            "\(path): a program was stopped in the middle of writing this catalog, and rolling its write back needs write access to the file and its folder. Run `catalog search --db \(path)` once as a user who can write there; that restores the catalog as it was before the interrupted write."
        case .inUse:
            "\(description) Close it and import again."
        case .importRunning:
            description
        case .cannotWrite:
            "\(description) Choose a --db path in a folder you can write to."
        case .database:
            description
        case .outputOverCatalog:
            "\(description) Choose another path for the output (--rejects, --output)."
        case .outputExists:
            "\(description). Choose a new --output path, or move the old file away first."

        }
    }
}
