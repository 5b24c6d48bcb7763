/// What to do when a productId appears more than once in a file.
public enum DuplicatePolicy: String, Sendable, CaseIterable {
    /// The later row replaces the earlier one, as a feed update expects.
    case last
    /// The first row stays; later ones are counted and dropped.
    case first
    /// The import stops, naming both lines.
    case fail
}
