/// Google Merchant Center and Meta catalog feeds: one row per item, variants linked by `item_group_id`.
///
/// Key `id`; `price` and `sale_price` carry their currency (`12.00 USD`); Meta's stock is
/// `quantity_to_sell_on_facebook` (or `inventory`). An item with an `item_group_id` has its
/// color, size, material, pattern, age group and gender as its options.
enum MerchantFeedLayout {
    static func layout(header: [String]) -> ColumnMapLayout {
        ColumnMapLayout(header: header, options: variantAttributes) { feed in
            [
                .productId: feed.take("id"), .title: feed.take("title"), .description: feed.take("description"),
                .listPrice: feed.take("price"), .salesPrice: feed.take("sale_price"), .groupId: feed.take("item_group_id"),
                .color: feed.take("color"), .size: feed.take("size"),
                .productType: feed.take("product_type", "google_product_category", "category"),
                .brand: feed.take("brand"), .imageURL: feed.take("image_link"),
                .quantity: feed.take("quantity_to_sell_on_facebook", "inventory"),
            ]
        }
    }

    /// The attributes Google names for telling an item group's variants apart.
    static let variantAttributes = [
        ("Color", "color"), ("Size", "size"), ("Material", "material"), ("Pattern", "pattern"),
        ("Age group", "age_group"), ("Gender", "gender"), ("Size type", "size_type"),
    ].map { (name: $0.0, header: $0.1) }
}
