/// The words generated products are made of: brands, product kinds, colours and sizes.
///
/// Some entries hold non-ASCII letters (é, ü, ß, 日本 …), commas or quotes on purpose, so that a
/// generated file exercises the parts of a CSV reader that plain ASCII would not.
enum ProductVocabulary {
    /// A group of products that share sizes and a price range.
    struct Category {
        /// What the products are: `Wool Sweater`, `Ceramic Mug`.
        let nouns: [String]
        /// What may follow a comma in the title: `Set of 4`, `27"`.
        let details: [String]
        /// The sizes products of this kind come in; `""` leaves the size empty.
        let sizes: [String]
        /// The range of whole-currency list prices, cheapest first.
        let prices: ClosedRange<Int>
    }

    static let brands = [
        "Acme", "Nordvik", "Lumière", "Müller", "Straßberg", "Élan", "Berg", "Oakline", "Kestrel",
        "Juno", "Zephyr", "Tide", "Sakura", "日本工房", "Café Olé", "Vértice", "Alba", "Ironbark",
        "Fjord", "Harbor", "Crest", "Nova", "Pike & Co.", "Orla",
    ]

    static let adjectives = [
        "Classic", "Slim", "Organic", "Premium", "Basic", "Vintage", "Light", "Soft", "Compact",
        "Deluxe", "Rustic", "Modern", "Bio", "Éco", "Travel", "Pro",
    ]

    /// Model names, printed in quotes: `Kestrel "Summit" Hiking Boots`.
    static let nicknames = [
        "Summit", "Aurora", "Metro", "Drift", "Atlas", "Fjäll", "Kaizen", "Zürich", "Nomad", "Orbit",
    ]

    static let colors = [
        "Black", "Black", "White", "White", "Navy", "Gray", "Red", "Olive", "Beige", "Charcoal",
        "Sky Blue", "Forest Green", "Burgundy", "Sand", "Silver", "Teal", "Ivory", "Crème",
        "Mustard", "Rose Gold",
    ]

    /// The categories, listed as often as they should be picked.
    static let categories: [Category] = [
        apparel, apparel, apparel, footwear, home, home, gadgets, screensAndSound, accessories,
    ]

    static let apparel = Category(
        nouns: [
            "T-Shirt", "Hoodie", "Rain Jacket", "Sweater", "Chinos", "Polo Shirt", "Denim Jacket",
            "Fleece Vest", "Jeans", "Dress", "Blazer", "Shorts",
        ],
        details: ["Organic Cotton", "Merino Wool", "2-Pack", "Unisex", "Größe M", "Slim Fit", "Linen"],
        sizes: ["XS", "S", "M", "M", "L", "L", "XL", "XXL"],
        prices: 12...180
    )

    static let footwear = Category(
        nouns: ["Running Shoes", "Hiking Boots", "Loafers", "Sneakers", "Sandals", "Slippers"],
        details: ["Waterproof", "Leather", "Vegan", "Wide Fit", "Édition Spéciale"],
        sizes: ["38", "39", "40", "41", "42", "43", "44", "45", "8", "9", "9.5", "10", "10.5", "11"],
        prices: 25...260
    )

    static let home = Category(
        nouns: [
            "Ceramic Mug", "Table Lamp", "Throw Pillow", "Bath Towel", "Chef's Knife", "Skillet",
            "Duvet Cover", "Teapot", "Vase", "Candle",
        ],
        details: ["Set of 4", "Set of 2", "Handmade", "日本製", "Stoneware", "Dishwasher Safe", "Façonné"],
        sizes: ["", "", "", "", "Small", "Medium", "Large", "Single", "Double", "King", "50x70 cm"],
        prices: 4...320
    )

    static let gadgets = Category(
        nouns: ["USB-C Cable", "Power Bank", "Keyboard", "Mouse", "Webcam", "Charger", "Phone Case"],
        details: ["Black Edition", "Bluetooth 5.3", "2-Pack", "Refurbished", "Travel Size"],
        sizes: ["", "", "", "", "", "1 m", "2 m"],
        prices: 9...149
    )

    static let screensAndSound = Category(
        nouns: ["27\" Monitor", "32\" Monitor", "10.9\" Tablet", "Headphones", "Speaker", "Soundbar", "TV"],
        details: ["4K", "Refurbished", "Noise Cancelling", "Wi-Fi", "Black Edition"],
        sizes: [""],
        prices: 49...1_499
    )

    static let accessories = Category(
        nouns: ["Backpack", "Scarf", "Beanie", "Wallet", "Belt", "Sunglasses", "Umbrella", "Tote Bag"],
        details: ["Recycled", "Leather", "Limited Edition", "Water-Resistant", "Für Kinder"],
        sizes: ["", "", "One Size", "One Size", "20 L", "30 L"],
        prices: 8...150
    )
}
