/// Small readings that several layouts share: option names, price comparisons, lists of images.
enum FeedValues {
    /// Option names that mean a color, in the languages shops export in.
    static let colorNames: Set<String> = ["color", "colour", "cor", "farbe", "couleur", "kleur", "colore", "färg", "farve", "primarycolor"]
    /// Option names that mean a size.
    static let sizeNames: Set<String> = ["size", "tamanho", "größe", "grosse", "taille", "talla", "maat", "taglia", "storlek", "størrelse"]

    /// The color and size among option `(name, value)` pairs.
    static func colorAndSize(_ options: [(name: String, value: String)]) -> (color: String, size: String) {
        var color = "", size = ""
        for option in options where !option.value.isEmpty {
            let name = HeaderName.normalize(option.name)
            if color.isEmpty, colorNames.contains(name) { color = option.value }
            if size.isEmpty, sizeNames.contains(name) { size = option.value }
        }
        return (color, size)
    }

    /// The amount of `text` in thousandths, however it is written; nil when it is not a price.
    static func thousandths(_ text: String) -> Int64? {
        var reader = PriceReader()
        guard case .success(let reading)? = reader.read(text) else { return nil }
        return reading.price.thousandths
    }

    /// `amount` less `percent` (in thousandths, so 10% is 10000) of it, rounded to the cent.
    static func less(percent: Int64, of amount: Int64) -> Int64 {
        amount - (amount * percent / 100_000 + 5) / 10 * 10
    }

    /// List and sale price from a price and a "compare at" (was) price: the higher one is the list
    /// price only when it is really higher; otherwise the price is the list price and there is no sale.
    static func listAndSale(price: String, compareAt: String) -> (list: String, sale: String) {
        if let was = thousandths(compareAt), let now = thousandths(price), was > now { return (compareAt, price) }
        return (price, "")
    }

    /// The first of the URLs in a list separated by commas, semicolons or spaces.
    static func firstURL(_ list: String) -> String {
        let separators: Set<Character> = [",", ";", " ", "|", "\n"]
        return list.split(whereSeparator: { separators.contains($0) }).first.map(String.init) ?? ""
    }

    /// Thousandths written back as a decimal price.
    static func price(thousandths: Int64) -> String {
        Price(thousandths: max(0, thousandths)).description
    }
}
