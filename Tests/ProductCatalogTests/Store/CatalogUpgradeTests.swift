import Testing
@testable @_spi(WordIndex) import ProductCatalog

/// Catalogs of layout version 1 kept prices in cents; they are read as they are and upgraded by the first write.
@Suite struct CatalogUpgradeTests {
    /// A catalog as version 1 wrote it: `listPriceCents`, `salesPriceCents`, and no later fields.
    func versionOneCatalog() throws -> CatalogFixture {
        let fixture = try CatalogFixture()
        let connection = try Connection(path: fixture.databasePath, mode: .create)
        try connection.execute("""
            PRAGMA application_id = \(CatalogSchema.applicationID);
            PRAGMA user_version = 1;
            CREATE TABLE products (
              productId TEXT NOT NULL COLLATE NOCASE PRIMARY KEY,
              title TEXT, listPriceCents INTEGER, salesPriceCents INTEGER, color TEXT, size TEXT,
              productType TEXT, taxRate TEXT, imageURL TEXT, Material TEXT
            ) WITHOUT ROWID;
            INSERT INTO products (productId, title, listPriceCents, salesPriceCents, Material)
              VALUES ('A1', 'Mug', 1250, 999, 'clay'), ('B2', 'Cup', 400, NULL, NULL);
            """)
        return fixture
    }

    func layout(_ path: String) throws -> (version: Int64?, columns: String?) {
        let connection = try Connection(path: path, mode: .readOnly)
        return (try connection.scalarInt("PRAGMA user_version"),
                try connection.scalarText("SELECT group_concat(name) FROM pragma_table_info('products')"))
    }

    @Test func aVersionOneCatalogIsReadInCentsWithoutBeingChanged() throws {
        let fixture = try versionOneCatalog()
        let products = try fixture.allProducts()
        #expect(products.map(\.listPrice) == [Price("12.50"), Price("4")])
        #expect(products.map(\.salesPrice) == [Price("9.99"), nil])
        #expect(products[0].extras == [Product.Extra(name: "Material", value: "clay")])
        #expect(try layout(fixture.databasePath).version == 1)
    }

    @Test func filtersAndFacetsReadAVersionOneCatalogAsItIs() throws {
        let fixture = try versionOneCatalog()
        let search = try ProductSearch(databasePath: fixture.databasePath)
        var filters = SearchFilters()
        filters.minPrice = Price("9.99")
        #expect(try search.page(query: "", filters: filters).products.map(\.productId) == ["A1"], "A1 sells for 9.99, in cents 999")
        filters.priceBasis = .list
        filters.minPrice = Price("4")
        filters.maxPrice = Price("4")
        #expect(try search.page(query: "", filters: filters).products.map(\.productId) == ["B2"])
        filters = SearchFilters()
        filters.onSale = true
        #expect(try search.count(query: "", filters: filters) == 1)
        // Version 1 had no brand: no product has one.
        filters = SearchFilters()
        filters.brands = ["Acme"]
        #expect(try search.count(query: "", filters: filters) == 0)
        filters.brands = [""]
        #expect(try search.count(query: "", filters: filters) == 2)
        #expect(try search.facets(query: "").counted == 2)
        #expect(try layout(fixture.databasePath).version == 1)
    }

    @Test func anEditUpgradesTheWholeCatalogToThousandths() throws {
        let fixture = try versionOneCatalog()
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        #expect(editor.extraColumns == ["Material"])
        _ = try editor.add(Product(productId: "K1", title: "Dinar mug", listPrice: Price("12.345"), currency: "KWD"))
        let (version, columns) = try layout(fixture.databasePath)
        #expect(version == Int64(CatalogSchema.version))
        #expect(columns?.contains("listPriceMilli,salesPriceMilli") == true && columns?.contains("Cents") == false)
        let products = Dictionary(uniqueKeysWithValues: try fixture.allProducts().map { ($0.productId, $0) })
        #expect(products["A1"]?.listPrice == Price("12.50") && products["A1"]?.salesPrice == Price("9.99"))
        #expect(products["B2"]?.listPrice == Price("4"))
        #expect(products["K1"]?.listPrice?.thousandths == 12_345)
    }

    @Test func anUpsertUpgradesTheCatalogItUpdates() throws {
        var fixture = try versionOneCatalog()
        fixture.options.mode = .upsert
        let summary = try fixture.importCSV("sku,price,currency\nB2,5.125,OMR\nC3,1,\n")
        #expect(summary.rowsInserted == 2)
        let products = Dictionary(uniqueKeysWithValues: try fixture.allProducts().map { ($0.productId, $0) })
        #expect(products["A1"]?.listPrice == Price("12.50") && products["A1"]?.salesPrice == Price("9.99"))
        #expect(products["B2"]?.listPrice?.thousandths == 5_125 && products["B2"]?.title == "Cup")
        #expect(products["C3"]?.listPrice == Price("1"))
        #expect(try layout(fixture.databasePath).version == Int64(CatalogSchema.version))
    }

    /// A catalog of layout 5, whose words FTS5 kept, is searched by productId alone (its FTS5
    /// tables are not read), and its next edit drops them and builds this layout's index from its products.
    @Test func aCatalogWithTheFTS5WordIndexIsSearchedByProductIdAndGetsTheIndexAtItsNextEdit() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title,brand\nA1,Skopje Mug,Acme\nB2,Skoda Cup,Skoll\nC3,Tea Pot,\nSKO9,Plate,\n")
        let connection = try Connection(path: fixture.databasePath, mode: .readWrite)
        // Layout 5 as that version left it: FTS5's table and its rows, no lists, no change notes.
        try connection.execute(WordLists.dropStatements + """
            DROP TABLE word_changes; DROP TABLE IF EXISTS catalog_added;
            DROP TRIGGER word_changes_insert; DROP TRIGGER word_changes_update; DROP TRIGGER word_changes_delete;
            DROP TRIGGER IF EXISTS catalog_added_insert; DROP TRIGGER IF EXISTS catalog_added_delete; DROP TRIGGER IF EXISTS catalog_added_rename;
            CREATE VIRTUAL TABLE words USING fts5 (title, brand, productType, content='', detail=column, columnsize=0,
              prefix='1 2 3', tokenize='unicode61 remove_diacritics 2');
            CREATE TABLE word_products (wordRow INTEGER PRIMARY KEY, productId TEXT NOT NULL COLLATE NOCASE, titleKey INTEGER);
            INSERT INTO word_products (wordRow, productId) SELECT rowid, productId FROM (SELECT row_number() OVER () AS rowid, productId FROM products);
            INSERT INTO words (rowid, title, brand, productType) SELECT w.wordRow, p.title, p.brand, p.productType FROM word_products w JOIN products p USING (productId);
            PRAGMA user_version = 5;
            """)
        let old = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try !old.hasWordIndex)
        #expect(try old.allPages(query: "sko", pageSize: 20) == ["SKO9"])
        #expect(try old.count(query: "sko") == 1)
        try CatalogEditor(databasePath: fixture.databasePath).add(Product(productId: "D4", title: "Skorpa Bowl"))
        #expect(try !connection.hasTable("words") && !connection.hasTable("word_products"))
        #expect(try layout(fixture.databasePath).version == Int64(CatalogSchema.version))
        let upgraded = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try upgraded.hasWordIndex)
        #expect(try upgraded.allPages(query: "sko", pageSize: 20) == ["SKO9", "A1", "B2", "D4"])
        #expect(try upgraded.allPages(query: "skol", pageSize: 20) == ["B2"])
    }
}
