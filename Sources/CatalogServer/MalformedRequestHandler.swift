import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request the HTTP decoder cannot read with the API's JSON error, then closes the connection.
///
/// The decoder stops at malformed framing (`Transfer-Encoding` with `Content-Length`, a negative
/// `Content-Length`, a NUL byte in the path, headers over 80 KiB…) with a parse error, which
/// Hummingbird would answer with a bare 400 and no body. This handler sits after the decoder and
/// sees that error first: before a request head has come through, it answers 400 (431 for headers
/// too large) with a message, like every other error of the API. An error in the middle of a
/// body goes on to the route reading it, which answers through ``JSONErrorMiddleware``.
final class MalformedRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    /// True between a request's head and its end: the route owns the answer then.
    private var inRequest = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: inRequest = true
        case .body: break
        case .end: inRequest = false
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError, !inRequest else {
            context.fireErrorCaught(error)
            return
        }
        let (status, message) = Self.answer(for: parseError)
        let body = ByteBuffer(string: #"{"error":{"message":"# + Self.jsonString(message) + #","fields":{}}}"#)
        let head = HTTPResponse(status: status, headerFields: [
            .contentType: "application/json; charset=utf-8", .contentLength: String(body.readableBytes), .connection: "close",
        ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }

    /// The status and message for a request the decoder refused.
    static func answer(for error: HTTPParserError) -> (HTTPResponse.Status, String) {
        switch error {
        case .headerOverflow:
            (.init(code: 431, reasonPhrase: "Request Header Fields Too Large"),
             "The request's headers are too large (more than 80 KiB); send fewer or shorter headers.")
        case .unexpectedContentLength, .invalidContentLength:
            (.badRequest, "The request's length is not readable: send one Content-Length of 0 or more, or Transfer-Encoding: chunked, not both.")
        case .invalidURL, .invalidCharactersUsed:
            (.badRequest, "The request's path or headers hold characters HTTP does not allow (such as a NUL byte); percent-encode them.")
        default:
            (.badRequest, "The request is not valid HTTP/1.1, so the server could not read it; send it again as a browser or curl would.")
        }
    }

    /// `text` as a JSON string literal; the messages above hold no character that needs escaping but quotes.
    private static func jsonString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
