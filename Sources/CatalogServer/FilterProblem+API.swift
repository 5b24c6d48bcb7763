import ProductCatalog

extension APIError {
    /// A 400 naming the URL parameter of the filter at fault (see ``SearchSchema/filters``).
    init(_ problem: FilterProblem) {
        let name = problem.filter
        switch problem {
        case .notAPrice(_, let text):
            self.init(.badRequest, "\(name) \(text) is not a price; write digits with up to three decimals and a dot, such as 19.99.",
                      fields: [name: "Write a price such as 19.99."])
        case .optionWithoutValue(_, let text):
            self.init(.badRequest, "\(name) \(text.isEmpty ? "(empty)" : text) has no value; write it as Name:Value, such as Length:14 Inches.",
                      fields: [name: "Write it as Name:Value."])
        case .notAllowed(_, let text, let allowed):
            let choices = allowed.joined(separator: " or ")
            self.init(.badRequest, "\(name) must be \(choices), not \(text).", fields: [name: "Use \(choices)."])
        case .tooLong(_, let bytes, let limit):
            self.init(.badRequest, "\(name) has a value of \(bytes) bytes; a value is at most \(limit) bytes, longer than any it can match.",
                      fields: [name: "Use at most \(limit) bytes."])
        case .tooManyValues(_, let count, let limit):
            self.init(.badRequest, "\(name) has \(count) values; give at most \(limit).", fields: [name: "Give at most \(limit) values."])
        case .repeated(_, let values):
            self.init(.badRequest, "\(name) takes one value, and was given \(values.count) different ones; give one.", fields: [name: "Give one value."])
        case .minAboveMax(let min, let max):
            self.init(.badRequest, "minPrice \(min) is above maxPrice \(max); swap them.", fields: ["minPrice": "Use a price no higher than maxPrice."])
        }
    }
}
