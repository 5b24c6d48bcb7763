/// One product holding one term (or a start of terms) of the word index: the product's word row
/// (its place in the index's order, see ``WordPlacement``) and the fields the term is in.
@_spi(WordIndex) public struct Posting: Equatable, Hashable, Sendable {
    /// The product's word row: its title's class above its place. Lists hold postings in this order.
    public var row: Int64
    /// The fields that hold the term: ``title``, ``brand`` and ``productType`` bits.
    public var fields: UInt8

    public init(row: Int64, fields: UInt8) {
        self.row = row
        self.fields = fields
    }

    /// The field bits, in the order of ``WordIndex/columns``.
    public static let title: UInt8 = 1
    public static let brand: UInt8 = 2
    public static let productType: UInt8 = 4
    /// Bits a posting's fields take in its encoding.
    static let fieldBits: UInt64 = 3

    /// The bit of field `index` of ``WordIndex/columns`` (title 0, brand 1, type 2).
    public static func field(_ index: Int) -> UInt8 {
        1 << UInt8(index)
    }
}
