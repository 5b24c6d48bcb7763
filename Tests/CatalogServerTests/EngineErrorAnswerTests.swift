import Hummingbird
import ProductCatalog
import Testing
@testable import CatalogServer

/// What the server answers for each failure only an engine reports: the page's words, never
/// the command line's flags or the database server's address.
@Suite struct EngineErrorAnswerTests {
    static let catalog = "postgres://shop@db.internal/catalog"

    static let cases: [(EngineError, HTTPResponse.Status, String)] = [
        (.noCatalog(catalog: catalog), .notFound, "There is no catalog yet"),
        (.unreachable(catalog: catalog, reason: "connection refused"), .serviceUnavailable, "cannot be reached; try again"),
        (.serverFailed(catalog: catalog, doing: "update the product", message: "deadlock detected"), .internalServerError,
         "could not update the product (deadlock detected); nothing was changed"),
        (.keptChanging(catalog: catalog), .serviceUnavailable, "replaced again and again"),
        (.unreadable(catalog: catalog, reason: "the table products is not a catalog"), .internalServerError, "not a catalog it can read"),
    ]

    @Test(arguments: 0..<cases.count) func eachFailureHasItsStatusAndThePagesWords(index: Int) {
        let (error, status, says) = Self.cases[index]
        let answer = APIError(error)
        #expect(answer.status == status)
        #expect(answer.message.contains(says), "\(answer.message)")
        #expect(!answer.message.contains(Self.catalog) && !answer.message.contains("--sort"), "\(answer.message)")
    }

    @Test func aRetryIsSuggestedWhenWaitingHelps() {
        #expect(APIError(EngineError.unreachable(catalog: Self.catalog, reason: "refused")).headers[.retryAfter] == "5")
        #expect(APIError(EngineError.keptChanging(catalog: Self.catalog)).headers[.retryAfter] == "1")
    }
}
