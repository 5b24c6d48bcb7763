import Hummingbird
import ProductCatalog

/// `/api/schema`: the fields, filters and sorts a search takes, from the one description of each
/// (``SearchSchema``, ``SearchSort``, ``ProductField``), and what this catalog's engine keeps.
struct SchemaController<Context: RequestContext> {
    let store: any CatalogEngine

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.getAndHead(use: schema)
        return routes
    }

    /// `GET`: `{"filters": [...], "sorts": [...], "fields": [...], "keeps": {...}}`. A filter has its
    /// URL `name`, the CLI's `option`, a `label`, the `field` it looks at (or null), `values`
    /// (`many`: repeatable, any matches; `one`; `flag`: `true` or `false`), `allowed` when they are
    /// a fixed few, and `help`. A sort has its `name` (`sort=`), `label`, `field` and whether it is
    /// `descending`. A field has its `name`, `label`, the `hint` a form shows under it (or null), the
    /// kind of `value` it holds (`text`, `decimal`, `wholeNumber`), the header names that mean it (`aliases`), and
    /// whether it is `facet`ed, `filter`ed and `sort`ed. `keeps` says what the catalog's engine
    /// keeps beside its products: `stockByStore`, `collections`.
    @Sendable func schema(request: Request, context: Context) async throws -> Response {
        let filters = SearchSchema.filters.map { filter in
            JSONValue.object([
                .init("name", .string(filter.name)),
                .init("option", .string("--" + filter.option)),
                .init("label", .string(filter.label)),
                .init("field", filter.field.map { .string($0.rawValue) } ?? .null),
                .init("values", .string(filter.arity.rawValue)),
                .init("allowed", filter.allowed.map { .array($0.map { .string($0) }) } ?? .null),
                .init("help", .string(filter.help)),
            ])
        }
        let sorts = SearchSchema.sorts.map { sort in
            JSONValue.object([
                .init("name", .string(sort.rawValue)),
                .init("label", .string(sort.label)),
                .init("field", sort.field.map { .string($0.rawValue) } ?? .null),
                .init("descending", .bool(sort.isDescending)),
            ])
        }
        let fields = ProductField.allCases.map { field in
            JSONValue.object([
                .init("name", .string(field.rawValue)),
                .init("label", .string(field.label)),
                .init("hint", field.hint.map { .string($0) } ?? .null),
                .init("value", .string(field.valueKind.rawValue)),
                .init("aliases", .array(field.aliases.map { .string($0) })),
                .init("facet", .bool(FacetCounts.fields.contains(field) || field == .options)),
                .init("filter", .bool(SearchSchema.filters.contains { $0.field == field })),
                .init("sort", .bool(SearchSchema.sorts.contains { $0.field == field })),
            ])
        }
        return JSONResponse.response(.object([
            .init("filters", .array(filters)),
            .init("sorts", .array(sorts)),
            .init("fields", .array(fields)),
            .init("keeps", .object(CatalogFeature.allCases.map { .init($0.rawValue, .bool(store.features.contains($0))) })),
        ]))
    }
}
