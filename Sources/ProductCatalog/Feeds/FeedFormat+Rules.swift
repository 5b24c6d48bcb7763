extension FeedFormat {
    /// How the format's productId is made, in words; nil for ``generic`` (the mapped column).
    public var keyRule: String? {
        switch self {
        case .generic: nil
        case .google, .meta: "id"
        case .shopify: "Handle, joined with the variant's option values by / (classic-tee/Red/M); the Handle alone without options"
        case .woocommerce: "SKU, or id: and the ID when the SKU is empty (id:42)"
        case .magento: "sku"
        case .squarespace: "Variant ID, else SKU, else Product ID"
        case .wix: "the variant's sku, or handleId joined with the option values by /; handleId for a product without variants"
        case .etsy: "TITLE (the download has no listing id)"
        case .prestashop: "Reference #, else ID"
        case .akeneo: "sku"
        }
    }

    /// Where each field comes from in a platform format, in words; empty for ``generic``.
    public var fieldRules: [ProductField: String] {
        switch self {
        case .generic:
            return [:]
        case .google, .meta:
            return [.productId: "id", .title: "title", .description: "description", .listPrice: "price (its currency too)",
                    .salesPrice: "sale_price", .groupId: "item_group_id", .color: "color", .size: "size",
                    .productType: "product_type", .brand: "brand", .imageURL: "image_link",
                    .quantity: "quantity_to_sell_on_facebook or inventory (Meta)", .currency: "the currency written with price"]
        case .shopify:
            return [.productId: keyRule!, .groupId: "Handle", .title: "Title, filled down", .description: "Body (HTML), filled down",
                    .brand: "Vendor, filled down", .productType: "Type (or Product Category), filled down",
                    .listPrice: "Variant Compare At Price when above Variant Price, else Variant Price",
                    .salesPrice: "Variant Price when Variant Compare At Price is above it", .quantity: "Variant Inventory Qty",
                    .imageURL: "Variant Image, else the product's first Image Src", .color: "the option named Color", .size: "the option named Size"]
        case .woocommerce:
            return [.productId: keyRule!, .groupId: "Parent (the variable product's key)", .title: "Name, else the parent's",
                    .description: "Description, else the parent's", .productType: "Categories, else the parent's",
                    .imageURL: "the first of Images, else the parent's", .brand: "Brands, else the parent's",
                    .listPrice: "Regular price", .salesPrice: "Sale price", .quantity: "Stock",
                    .color: "the attribute named Color", .size: "the attribute named Size"]
        case .magento:
            return [.productId: "sku", .groupId: "the configurable product that lists the sku", .title: "name",
                    .description: "description, else the configurable product's", .productType: "the first of categories",
                    .listPrice: "price", .salesPrice: "special_price", .quantity: "qty",
                    .color: "color= in additional_attributes", .size: "size= in additional_attributes"]
        case .squarespace:
            return [.productId: keyRule!, .groupId: "Product ID", .title: "Title, filled down", .description: "Description, filled down",
                    .productType: "the first of Categories, filled down", .imageURL: "the first of Hosted Image URLs, filled down",
                    .listPrice: "Price", .salesPrice: "Sale Price when On Sale is Yes", .quantity: "Stock (Unlimited is empty)",
                    .color: "the option named Color", .size: "the option named Size"]
        case .wix:
            return [.productId: keyRule!, .groupId: "handleId", .title: "the product row's name", .description: "the product row's description",
                    .productType: "the first of collection", .imageURL: "the first of productImageUrl, as a static.wixstatic.com address",
                    .listPrice: "the product's price plus the variant's surcharge", .salesPrice: "that price less discountValue (PERCENT or AMOUNT)",
                    .quantity: "inventory when a number", .brand: "brand", .color: "the option named Color (the name after the colon)",
                    .size: "the option named Size"]
        case .etsy:
            return [.productId: "TITLE", .title: "TITLE", .description: "DESCRIPTION", .listPrice: "PRICE",
                    .currency: "CURRENCY_CODE", .quantity: "QUANTITY", .imageURL: "IMAGE1"]
        case .prestashop:
            return [.productId: keyRule!, .title: "Name", .listPrice: "Price tax included (else Final price, Price tax excluded, Base price)",
                    .salesPrice: "the list price less Discount amount or Discount percent", .quantity: "Quantity",
                    .productType: "the first of Categories", .brand: "Manufacturer", .description: "Description",
                    .imageURL: "the first of Image URLs"]
        case .akeneo:
            return [.productId: "sku", .groupId: "parent", .title: "name (or the first name-<locale>)",
                    .description: "description (or the first description-<locale>-<channel>)",
                    .listPrice: "the first price-<currency> with a value", .currency: "the <currency> of that column",
                    .color: "color", .size: "size", .brand: "brand", .productType: "the first of categories"]
        }
    }
}
