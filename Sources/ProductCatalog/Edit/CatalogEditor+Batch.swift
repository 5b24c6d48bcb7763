/// One change made to many products at once.
public enum BatchChange: Sendable, Hashable {
    /// Stars (true) or unstars (false) each product.
    case star(Bool)
    /// Deletes each product.
    case delete
    /// Sets these fields of each product to these texts (empty clears one), checked as a single edit is.
    case set([ProductField: String])
}

extension BatchChange {
    /// `product` with the fields of ``set(_:)`` set, checked as a single edit is.
    public func applied(to product: Product) throws(EditError) -> Product {
        guard case .set(let values) = self else { return product }
        var draft = ProductDraft(product)
        for (field, text) in values { draft.values[field] = text }
        do {
            return try ProductValidation.product(from: draft)
        } catch {
            throw EditError.invalid(error)
        }
    }

    /// What ``set(_:)`` would replace in `product`: the text of each field it names, as an edit
    /// form shows it (empty for no value), so that setting these texts again undoes it. Empty for
    /// the other changes.
    public func replacedValues(in product: Product) -> [ProductField: String] {
        guard case .set(let values) = self else { return [:] }
        let draft = ProductDraft(product)
        return Dictionary(uniqueKeysWithValues: values.keys.map { ($0, draft.values[$0] ?? "") })
    }
}

/// What a batch changed, and what it refused and why.
public struct BatchOutcome: Sendable {
    /// A product the batch left as it was.
    public struct Refusal: Sendable {
        public var productId: String
        /// Why: a single edit's error (a field's rule, or that there is no such product).
        public var error: EditError

        /// The refusal of a single edit's `error`.
        public init(productId: String, error: EditError) {
            self.productId = productId
            self.error = error
        }

        /// The problem of each field that broke a rule, by field name; empty when no field did
        /// (there is no such product).
        public var problems: [String: FieldProblem] {
            if case .invalid(let invalid) = error { return invalid.problems }
            return [:]
        }
    }

    /// The productIds changed, in the order given.
    public var changed: [String] = []
    public var refused: [Refusal] = []
    /// For a ``BatchChange/set(_:)``: what it replaced in each changed product, by productId
    /// as given (see ``BatchChange/replacedValues(in:)``). Setting them again undoes the batch.
    public var replaced: [String: [ProductField: String]] = [:]

    public init() {}
}

extension CatalogEditor {
    /// The most products one batch may change.
    public static let maxBatchProducts = 1_000

    /// Applies `change` to each of `productIds` in one transaction: readers see all of it or none.
    ///
    /// A product the change cannot apply to (there is none with that productId, or a field breaks
    /// the rules of a single edit) is left as it was and listed in ``BatchOutcome/refused``; the
    /// others are changed. A productId may not be set in a batch: every product would get the same one.
    public func apply(_ change: BatchChange, to productIds: [String]) throws -> BatchOutcome {
        precondition(productIds.count <= Self.maxBatchProducts, "a batch changes at most \(Self.maxBatchProducts) products")
        if case .set(let values) = change, values[.productId] != nil {
            throw EditError.invalid(ProductValidationError(problems: [ProductField.productId.rawValue: .productIdInBatch]))
        }
        return try write {
            var outcome = BatchOutcome()
            for productId in productIds {
                try connection.execute("SAVEPOINT batch_item")
                do {
                    let replaced = try applyOne(change, to: productId)
                    try connection.execute("RELEASE batch_item")
                    outcome.changed.append(productId)
                    // A productId named twice keeps what the first change replaced: the values before the batch.
                    if !replaced.isEmpty, outcome.replaced[productId] == nil { outcome.replaced[productId] = replaced }
                } catch let error as EditError {
                    switch error {
                    case .invalid, .notFound, .duplicate: break
                    default: throw error
                    }
                    try connection.execute("ROLLBACK TO batch_item; RELEASE batch_item")
                    outcome.refused.append(.init(productId: productId, error: error))
                }
            }
            return outcome
        }
    }

    /// Applies `change` to one product; returns what it replaced (see ``BatchChange/replacedValues(in:)``).
    private func applyOne(_ change: BatchChange, to productId: String) throws -> [ProductField: String] {
        switch change {
        case .star(let starred):
            _ = try stored(productId)
            try setFavorite(productId, starred)
        case .delete:
            try delete(productId: productId)
        case .set:
            let current = try stored(productId)
            try replace(productId: current.productId, with: try change.applied(to: current))
            return change.replacedValues(in: current)
        }
        return [:]
    }
}
