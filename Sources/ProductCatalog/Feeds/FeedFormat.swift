/// The platform a product file comes from, recognised from its header.
///
/// Each format maps the file with that platform's meaning (see docs/feeds.md's table): its key,
/// its variant rows, its prices. ``generic`` maps columns by name and alias, as any CSV.
public enum FeedFormat: String, Sendable, CaseIterable, Equatable {
    case generic, google, meta, shopify, woocommerce, magento, squarespace, wix, etsy, prestashop, akeneo

    /// The platform's name, as people write it.
    public var displayName: String {
        switch self {
        case .generic: "generic CSV"
        case .google: "Google Merchant Center feed"
        case .meta: "Meta (Facebook, Instagram) catalog feed"
        case .shopify: "Shopify product export"
        case .woocommerce: "WooCommerce product export"
        case .magento: "Magento 2 product export"
        case .squarespace: "Squarespace product export"
        case .wix: "Wix Stores product export"
        case .etsy: "Etsy listings export"
        case .prestashop: "PrestaShop product file"
        case .akeneo: "Akeneo product export"
        }
    }

    /// The format whose signature columns `header` has; ``generic`` when none matches.
    public static func detect(header: [String]) -> FeedFormat {
        let columns = FeedColumns(header: header)
        func all(_ names: String...) -> Bool { names.allSatisfy(columns.has) }
        func any(_ names: String...) -> Bool { names.contains(where: columns.has) }
        if any("Handle", "URL handle") && any("Variant Price", "Variant SKU", "Option1 Value") { return .shopify }
        if all("handleId", "fieldType") { return .wix }
        if all("Product ID", "Variant ID") || (all("Product ID") && any("Hosted Image URLs", "Product Page")) { return .squarespace }
        if all("TITLE", "CURRENCY_CODE") && any("VARIATION 1 TYPE", "IMAGE1", "QUANTITY") { return .etsy }
        if WooCommerceLayout.recognises(columns) { return .woocommerce }
        if all("sku", "attribute_set_code") || all("sku", "product_type", "configurable_variations") { return .magento }
        if all("sku", "family") && (columns.header.contains { HeaderName.normalize($0).hasPrefix("name") && $0.contains("-") }
                                     || any("categories", "enabled", "parent")) { return .akeneo }
        if any("Price tax excluded", "Price tax included", "Reference #") || all("Product ID", "Reference", "Final price") { return .prestashop }
        if all("id", "title", "price") && any("image_link", "link", "availability", "item_group_id", "condition", "gtin", "mpn") {
            let meta = columns.header.contains { $0.hasPrefix("video[") || $0.hasPrefix("fb_") || $0.hasPrefix("quantity_to_sell_on_facebook") || $0 == "rich_text_description" }
            return meta ? .meta : .google
        }
        return .generic
    }

    /// The layout that reads this format; nil for ``generic``, which needs none.
    func layout(header: [String]) -> (any FeedLayout)? {
        switch self {
        case .generic: nil
        case .google, .meta: MerchantFeedLayout.layout(header: header)
        case .shopify: ShopifyLayout(header: header)
        case .woocommerce: WooCommerceLayout(header: header)
        case .magento: MagentoLayout(header: header)
        case .squarespace: SquarespaceLayout(header: header)
        case .wix: WixLayout(header: header)
        case .etsy: EtsyLayout.layout(header: header)
        case .prestashop: PrestaShopLayout(header: header)
        case .akeneo: AkeneoLayout(header: header)
        }
    }
}
