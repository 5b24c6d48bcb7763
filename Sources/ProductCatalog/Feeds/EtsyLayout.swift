/// Etsy listing downloads: one row per listing, with no id column.
///
/// The key is the listing's `TITLE` (Etsy's download has no listing id, and `SKU` lists every
/// variant's SKU at once); `CURRENCY_CODE` is the prices' currency; `IMAGE1` the image.
enum EtsyLayout {
    static func layout(header: [String]) -> ColumnMapLayout {
        ColumnMapLayout(header: header) { feed in
            [
                .productId: feed.index("TITLE"), .title: feed.take("TITLE"), .description: feed.take("DESCRIPTION"),
                .listPrice: feed.take("PRICE"), .currency: feed.take("CURRENCY_CODE"), .quantity: feed.take("QUANTITY"),
                .imageURL: feed.take("IMAGE1"),
            ]
        }
    }
}
