import ArgumentParser

extension Catalog {
    struct Generate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write a realistic product CSV file.")
    }
}
