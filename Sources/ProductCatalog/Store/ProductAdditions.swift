/// The order products were added in since the last replacing import, which the newest-first
/// sort reads (``SearchSort/newest``): kept by triggers, whatever program writes.
///
/// ```sql
/// CREATE TABLE catalog_added (seq INTEGER PRIMARY KEY, productId TEXT NOT NULL UNIQUE COLLATE NOCASE);
/// ```
///
/// A product added gets the next `seq`; one deleted leaves; one renamed keeps its `seq`. A
/// replacing import starts a new file without rows: its products are listed after those added
/// since, in reverse productId order.
enum ProductAdditions {
    static let table = "catalog_added"

    /// The table and its triggers.
    static let createStatements = """
        CREATE TABLE IF NOT EXISTS \(table) (seq INTEGER PRIMARY KEY, productId TEXT NOT NULL UNIQUE COLLATE NOCASE);
        CREATE TRIGGER IF NOT EXISTS catalog_added_insert AFTER INSERT ON \(CatalogSchema.table) BEGIN
          DELETE FROM \(table) WHERE productId = new.productId;
          INSERT INTO \(table) (productId) VALUES (new.productId);
        END;
        \(CatalogSchema.followingProducts(table, triggers: "catalog_added"))
        """
}
