import Foundation
import ProductCatalog

extension CatalogEngine {
    /// The catalog as the page and the API name it: a file by its name alone (the server's
    /// folders are its own business), a PostgreSQL catalog by its URL, which names no password.
    var nameForClients: String {
        guard case .file(let path) = CatalogLocation(name) else { return name }
        return (path as NSString).lastPathComponent
    }
}
