import PostgresNIO

/// SQL text and the values bound to its `$1`, `$2`, … placeholders, built up piece by piece.
struct PostgresStatement {
    var sql: String
    private var binds = PostgresBindings()

    init(_ sql: String = "") {
        self.sql = sql
    }

    /// Binds `value` and returns its placeholder.
    mutating func bind(_ value: some PostgresDynamicTypeEncodable) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    var query: PostgresQuery { PostgresQuery(unsafeSQL: sql, binds: binds) }
}
