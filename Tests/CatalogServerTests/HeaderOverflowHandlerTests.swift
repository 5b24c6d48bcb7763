import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import Testing
@testable import CatalogServer

@Suite struct HeaderOverflowHandlerTests {
    @Test func headersTooLargeAreAnswered431InJSONAndTheConnectionCloses() throws {
        let channel = EmbeddedChannel(handler: HeaderOverflowHandler())
        channel.pipeline.fireErrorCaught(HTTPParserError.headerOverflow)
        guard case .head(let head)? = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no response head")
            return
        }
        #expect(head.status.code == 431)
        #expect(head.headerFields[.connection] == "close")
        guard case .body(let body)? = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no response body")
            return
        }
        #expect(String(buffer: body).contains("headers are too large"))
        #expect(!channel.isActive)
    }

    @Test func otherParseErrorsPassOnUnchanged() throws {
        let channel = EmbeddedChannel(handler: HeaderOverflowHandler())
        channel.pipeline.fireErrorCaught(HTTPParserError.invalidChunkSize)
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
        #expect(throws: HTTPParserError.self) { try channel.throwIfErrorCaught() }
    }
}
