import Foundation
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import Testing
@testable import CatalogServer

@Suite struct MalformedRequestHandlerTests {
    /// The answer the handler wrote, and whether it closed the connection.
    func answer(to error: HTTPParserError) throws -> (status: Int, message: String, closed: Bool)? {
        let channel = EmbeddedChannel(handler: MalformedRequestHandler())
        channel.pipeline.fireErrorCaught(error)
        guard case .head(let head)? = try channel.readOutbound(as: HTTPResponsePart.self) else { return nil }
        #expect(head.headerFields[.connection] == "close")
        #expect(head.headerFields[.contentType] == "application/json; charset=utf-8")
        guard case .body(let body)? = try channel.readOutbound(as: HTTPResponsePart.self) else { return nil }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])
        let message = try #require((json["error"] as? [String: Any])?["message"] as? String)
        return (head.status.code, message, !channel.isActive)
    }

    @Test func headersTooLargeAreAnswered431InJSONAndTheConnectionCloses() throws {
        let answer = try #require(try answer(to: .headerOverflow))
        #expect(answer.status == 431)
        #expect(answer.message.contains("headers are too large"))
        #expect(answer.closed)
    }

    @Test(arguments: [
        (HTTPParserError.unexpectedContentLength, "not both"),
        (.invalidContentLength, "Content-Length of 0 or more"),
        (.invalidURL, "NUL byte"),
        (.invalidCharactersUsed, "percent-encode"),
        (.invalidChunkSize, "not valid HTTP/1.1"),
    ])
    func unreadableRequestsAreAnswered400InJSON(error: HTTPParserError, says: String) throws {
        let answer = try #require(try answer(to: error))
        #expect(answer.status == 400)
        #expect(answer.message.contains(says), "\(answer.message)")
        #expect(answer.closed)
    }

    @Test func anErrorInsideARequestGoesOnToItsRoute() throws {
        let channel = EmbeddedChannel(handler: MalformedRequestHandler())
        try channel.writeInbound(HTTPRequestPart.head(HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/api/imports")))
        _ = try channel.readInbound(as: HTTPRequestPart.self)
        channel.pipeline.fireErrorCaught(HTTPParserError.invalidChunkSize)
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
        #expect(throws: HTTPParserError.self) { try channel.throwIfErrorCaught() }
    }
}
