import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request whose headers are too large with 431 and a JSON message, then closes the connection.
///
/// The HTTP decoder stops at 80 KiB of headers with a parse error, which the server would
/// answer with a bare 400. This handler sits after the decoder, sees that error first, and
/// answers what it is: 431 Request Header Fields Too Large.
final class HeaderOverflowHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError, parseError == .headerOverflow else {
            context.fireErrorCaught(error)
            return
        }
        let body = ByteBuffer(string: #"{"error":{"message":"The request's headers are too large (more than 80 KiB); send fewer or shorter headers.","fields":{}}}"#)
        let head = HTTPResponse(status: .init(code: 431, reasonPhrase: "Request Header Fields Too Large"), headerFields: [
            .contentType: "application/json; charset=utf-8", .contentLength: String(body.readableBytes), .connection: "close",
        ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }
}
