import ArgumentParser

extension Catalog {
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Import a product CSV file into the catalog.")
    }
}
