extension ProductSearch {
    /// Every distinct `imageURL` that starts with `prefix` (a server's own pictures, `/images/`):
    /// what a sweep of its pictures folder must keep. One pass over the products.
    public func imageURLs(startingWith prefix: String) throws -> Set<String> {
        let statement = try prepared("SELECT DISTINCT imageURL FROM \(CatalogSchema.table) WHERE substr(imageURL, 1, length(?1)) = ?1")
        return try statement.using {
            try statement.bind(1, prefix)
            var urls = Set<String>()
            while try statement.step() { if let url = statement.text(at: 0) { urls.insert(url) } }
            return urls
        }
    }
}
