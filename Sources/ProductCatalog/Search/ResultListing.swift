/// What a search lists: one result per product family, or every variant.
///
/// A family is the products that share a groupId (Shopify's handle, Google's `item_group_id`, a
/// WooCommerce variation's parent); a product without one is a family of its own. Listing
/// families, a search shows each family once, as the variant the search would list first (the
/// best-ranked, or the first in the sort's order, among those that match and pass the filters),
/// and counts families; a page after a cursor leaves out a family listed before it.
public enum ResultListing: String, Sendable, CaseIterable, Codable {
    /// One result per family: the default, as Shopify's admin, Meilisearch's `distinctAttribute`
    /// and Algolia's `distinct` show a product once.
    case families
    /// Every product, each variant on its own.
    case variants
}
