/// WooCommerce product exports, with the header names WooCommerce writes in the site's language.
///
/// Every simple product and every variation is a row; a `variable` product is the family its
/// variations belong to (their `Parent`, `id:20`), folded into them: its name, description,
/// categories, images and brand fill what a variation leaves blank, and its key is their
/// `groupId`. The key is the `SKU`, or `id:` and the `ID` when the SKU is empty (as WooCommerce
/// itself writes references), so that an ID never collides with another product's SKU.
struct WooCommerceLayout: FeedLayout {
    let outputHeader: [String]
    private(set) var foldedRecords = 0
    private let extras: [Int]
    private let id, type, sku, name, regular, sale, parent, stock, categories, images, description, brands: Int?
    private let attributes: [(name: Int?, value: Int?)]
    /// Variable products read so far, by `id:N` and by SKU: what their variations inherit.
    private var parents: [String: Parent] = [:]

    private struct Parent {
        var key, name, description, categories, image, brand: String
    }

    // The same column in the languages WooCommerce exports in: English, Portuguese, German, French, Spanish, Italian.
    private static let idNames = ["ID"]
    private static let typeNames = ["Type", "Tipo", "Typ"]
    private static let regularNames = ["Regular price", "Preço", "Regulärer Preis", "Tarif régulier", "Prix normal", "Precio normal", "Prezzo di listino"]
    private static let parentNames = ["Parent", "Produto ascendente", "Übergeordnetes Produkt", "Parent", "Superior", "Genitore"]

    /// True when `columns` has WooCommerce's ID, type and price or parent columns, in any language it writes.
    static func recognises(_ columns: FeedColumns) -> Bool {
        func any(_ names: [String]) -> Bool { names.contains(where: columns.has) }
        return any(idNames) && any(typeNames) && (any(regularNames) || any(parentNames))
    }

    init(header: [String]) {
        var feed = FeedColumns(header: header)
        func take(_ names: [String]) -> Int? {
            for name in names { if let index = feed.take(name) { return index } }
            return nil
        }
        id = take(Self.idNames)
        type = take(Self.typeNames)
        sku = take(["SKU", "REF", "Artikelnummer", "UGS", "Referencia", "Codice"])
        name = take(["Name", "Nome", "Nom", "Nombre"])
        regular = take(Self.regularNames)
        sale = take(["Sale price", "Preço promocional", "Angebotspreis", "Tarif promo", "Prix promo", "Precio rebajado", "Prezzo in offerta"])
        parent = take(Self.parentNames)
        stock = take(["Stock", "Estoque", "Lagerbestand", "Inventario", "Magazzino"])
        categories = take(["Categories", "Categorias", "Kategorien", "Catégories", "Categorías", "Categorie"])
        images = take(["Images", "Imagens", "Bilder", "Imágenes", "Immagini"])
        description = take(["Description", "Descrição", "Beschreibung", "Descripción", "Descrizione"])
        brands = take(["Brands", "Marcas", "Marken", "Marques", "Marche"])
        attributes = (1...6).map { number in
            (feed.index("Attribute \(number) name", "Nome do atributo \(number)", "Eigenschaft \(number) Name",
                        "Nom de l’attribut \(number)", "Nombre del atributo \(number)", "Nome attributo \(number)"),
             feed.index("Attribute \(number) value(s)", "Valores do atributo \(number)", "Eigenschaft \(number) Wert(e)",
                        "Valeur(s) de l’attribut \(number)", "Valor(es) del atributo \(number)", "Valore(i) attributo \(number)"))
        }
        extras = feed.extras
        outputHeader = feed.outputHeader(extras: extras)
    }

    mutating func take(_ fields: [String], line: Int, emit: (FeedRow) throws -> Void) throws {
        let kind = fields[column: type].lowercased()
        let ownSKU = fields[column: sku]
        let key = ownSKU.isEmpty ? "id:" + fields[column: id] : ownSKU
        if kind.contains("variable") {
            let family = Parent(
                key: key, name: fields[column: name], description: fields[column: description],
                categories: fields[column: categories], image: FeedValues.firstURL(fields[column: images]),
                brand: fields[column: brands])
            parents["id:" + fields[column: id]] = family
            if !ownSKU.isEmpty { parents[ownSKU] = family }
            foldedRecords += 1
            return
        }
        let family = kind.contains("variation") ? parents[fields[column: parent]] : nil
        var row = FeedRow(line: line, extras: extras.map { fields[$0] })
        func filled(_ own: String, _ inherited: KeyPath<Parent, String>) -> String {
            own.isEmpty ? family?[keyPath: inherited] ?? "" : own
        }
        row[.productId] = key
        row[.groupId] = family?.key ?? (kind.contains("variation") ? fields[column: parent] : "")
        row[.title] = filled(fields[column: name], \.name)
        row[.description] = filled(fields[column: description], \.description)
        row[.productType] = filled(fields[column: categories], \.categories)
        row[.imageURL] = filled(FeedValues.firstURL(fields[column: images]), \.image)
        row[.brand] = filled(fields[column: brands], \.brand)
        row[.listPrice] = fields[column: regular]
        row[.salesPrice] = fields[column: sale]
        row[.quantity] = fields[column: stock]
        let options = attributes.map { (name: fields[column: $0.name], value: fields[column: $0.value]) }
        row.setOptions(options.filter { !$0.value.contains(",") })
        try emit(row)
    }

    mutating func finish(emit: (FeedRow) throws -> Void) throws {}
}
