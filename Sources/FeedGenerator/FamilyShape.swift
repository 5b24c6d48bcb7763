/// The variants of one generated model, as fashion and home catalogs have them: two in five
/// models stand alone, the others come in 1 to 5 colours times 1 to 4 values of a second option
/// (a size, a length, a material or a capacity), 2 to 20 variants named by their options
/// (`Color: Navy; Size: M`).
struct FamilyShape {
    /// A second option's name and the values it draws from.
    private static let secondOptions: [(name: String, values: [String], weight: Int)] = [
        ("Size", ["XS", "S", "M", "L", "XL", "XXL"], 5),
        ("Length", ["30 cm", "45 cm", "60 cm", "75 cm", "90 cm"], 2),
        ("Material", ["Cotton", "Linen", "Wool", "Silk", "Leather"], 2),
        ("Capacity", ["250 ml", "500 ml", "750 ml", "1 L"], 1),
    ]

    /// What one variant is: its colour and size columns (nil when its family has no such option)
    /// and its options' text.
    struct Variant {
        var color: String?
        var size: String?
        var options: String
    }

    private var colors: [String]
    private var second: (name: String, values: [String])
    var variants: Int { max(1, colors.count * second.values.count) }

    init(_ random: inout SplitMix64) {
        guard random.next() % 5 >= 2 else {
            colors = []
            second = ("", [])
            return
        }
        var colorCount = 1 + Int(truncatingIfNeeded: random.next() % 5)
        var valueCount = 1 + Int(truncatingIfNeeded: random.next() % 4)
        if colorCount * valueCount == 1 {
            if random.next() % 2 == 0 { colorCount = 2 } else { valueCount = 2 }
        }
        let palette = RealisticVocabulary.colors
        let start = Int(truncatingIfNeeded: random.next() % UInt64(palette.count))
        colors = (0..<colorCount).map { palette[(start + $0 * 7) % palette.count] }
        var draw = Int(truncatingIfNeeded: random.next() % UInt64(Self.secondOptions.reduce(0) { $0 + $1.weight }))
        var chosen = Self.secondOptions[0]
        for option in Self.secondOptions {
            if draw < option.weight { chosen = option; break }
            draw -= option.weight
        }
        let first = Int(truncatingIfNeeded: random.next() % UInt64(chosen.values.count - valueCount + 1))
        second = (chosen.name, Array(chosen.values[first..<first + valueCount]))
    }

    /// The `index`th variant, colours first: options with one value across the family are not named.
    func variant(_ index: Int) -> Variant {
        let color = colors[index / second.values.count], value = second.values[index % second.values.count]
        var named: [String] = []
        if colors.count > 1 { named.append("Color: \(color)") }
        if second.values.count > 1 { named.append("\(second.name): \(value)") }
        return Variant(color: color, size: second.name == "Size" ? value : nil, options: named.joined(separator: "; "))
    }
}
