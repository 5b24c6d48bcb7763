/// A variant's options by name, as its feed names them: `Length: 14 Inches; Color: beige`.
///
/// Stored as that text in the `options` field, so that an export shows it as a person reads it
/// and an import of the export reads it back: each option is `name: value`, options are joined by
/// `"; "`. A name holds no `": "` and neither holds `"; "` (``init(_:)-(Sequence)`` replaces them).
public struct ProductOptions: Sendable, Hashable {
    /// One option: the feed's name for it and this variant's value.
    public struct Option: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var options: [Option]

    /// The options among `(name, value)` pairs, in their order: those with a value, each name once.
    public init<Pairs: Sequence>(_ pairs: Pairs) where Pairs.Element == (name: String, value: String) {
        var options: [Option] = []
        for (name, value) in pairs {
            let name = Self.cleaned(name).replacing(": ", with: " "), value = Self.cleaned(value)
            guard !name.isEmpty, !value.isEmpty, value != "Default Title",
                  !options.contains(where: { $0.name.lowercased() == name.lowercased() }) else { continue }
            options.append(Option(name: name, value: value))
        }
        self.options = options
    }

    /// Reads the stored text; a part without a name is kept as a value named "Option".
    public init(text: String?) {
        guard let text, !text.isEmpty else {
            options = []
            return
        }
        options = text.split(separator: "; ", omittingEmptySubsequences: true).map { part in
            guard let colon = part.range(of: ": ") else { return Option(name: "Option", value: String(part)) }
            return Option(name: String(part[..<colon.lowerBound]), value: String(part[colon.upperBound...]))
        }
    }

    /// The stored text: `name: value` joined by `"; "`; empty without options.
    public var text: String {
        options.map { "\($0.name): \($0.value)" }.joined(separator: "; ")
    }

    /// The value of the option named `name` (case ignored).
    public subscript(name: String) -> String? {
        options.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    private static func cleaned(_ text: String) -> String {
        ProductRules.trimmed(text).replacing("; ", with: ", ")
    }
}
