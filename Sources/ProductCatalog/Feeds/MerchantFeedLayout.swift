/// Google Merchant Center and Meta catalog feeds: one row per item, variants linked by `item_group_id`.
///
/// Key `id`; `price` and `sale_price` carry their currency (`12.00 USD`); Meta's stock is
/// `quantity_to_sell_on_facebook` (or `inventory`).
enum MerchantFeedLayout {
    static func layout(header: [String]) -> ColumnMapLayout {
        ColumnMapLayout(header: header) { feed in
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
}
