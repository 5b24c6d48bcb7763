import ArgumentParser

extension Catalog {
    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Find products whose productId starts with a prefix.")
    }
}
