import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Keeps slow and idle clients from holding the server: a deadline for each request head, and
/// room made for new connections by closing the ones that have waited longest on their client.
///
/// Connections cost the server little while they wait, but each holds one of a bounded number of
/// places (file descriptors, ``ConnectionRegistry/limit``). Two rules keep those places for
/// clients that use them:
/// - **Head deadline.** A connection must send a complete request head within
///   ``ConnectionRegistry/headTimeout`` of connecting or of its previous answer; otherwise it is
///   closed. This is also the keep-alive limit.
/// - **Room under pressure.** When more than ``ConnectionRegistry/evictionThreshold``
///   connections are open, each new one closes the open connection that has waited longest for
///   its client (for a request head, or for the next part of a body), never one the server is
///   answering. A flood of idle or dribbling sockets thus displaces itself, and a client that
///   sends its request promptly is served.
///
/// The handler sits after the HTTP decoder, so it sees whole request heads, body parts and ends.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let registry: ConnectionRegistry
    private var key: ConnectionRegistry.Key?
    private var headDeadline: Scheduled<Void>?
    /// Requests whose head arrived and whose answer has not ended.
    private var requestsInProgress = 0

    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            requestsInProgress += 1
            headDeadline?.cancel()
            headDeadline = nil
            key.map { registry.update($0, waiting: .client) }
        case .body:
            key.map { registry.update($0, waiting: .client) }
        case .end:
            // The request is all here: the server owes the answer, so the connection is not evictable.
            key.map { registry.update($0, waiting: .server) }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            requestsInProgress -= 1
            if requestsInProgress == 0 { awaitHead(context) }
        }
        context.write(data, promise: promise)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard key == nil else { return }
        key = registry.register(context.channel)
        awaitHead(context)
    }

    /// Waits for the next request head, closing the connection if it does not come in time.
    private func awaitHead(_ context: ChannelHandlerContext) {
        key.map { registry.update($0, waiting: .client) }
        headDeadline?.cancel()
        let channel = context.channel
        headDeadline = context.eventLoop.scheduleTask(in: .nanoseconds(registry.headTimeout.nanoseconds)) {
            channel.close(promise: nil)
        }
    }

    private func stop() {
        headDeadline?.cancel()
        headDeadline = nil
        if let key { registry.unregister(key) }
        key = nil
    }
}

/// The server's open connections, shared by every event loop, and which one to close for room.
final class ConnectionRegistry: Sendable {
    typealias Key = UInt64

    /// Who a connection is waiting on.
    enum Waiting: Sendable {
        /// The client: for a request head or the rest of a body. Such a connection may be closed for room.
        case client
        /// The server: it is answering a request.
        case server
    }

    private struct Entry {
        var channel: any Channel
        var waiting: Waiting
        /// When the client last sent something the server could use (a head or a body part), or connected.
        var since: ContinuousClock.Instant
    }

    /// The most connections the server accepts at once (more wait in the kernel's queue).
    let limit: Int
    /// Open connections past which each new one closes the one that has waited longest on its client.
    let evictionThreshold: Int
    /// How long a connection may take to send a complete request head.
    let headTimeout: Duration
    private let state = Mutex<(entries: [Key: Entry], next: Key)>(([:], 0))

    init(limit: Int, headTimeout: Duration) {
        self.limit = limit
        evictionThreshold = max(1, limit * 3 / 4)
        self.headTimeout = headTimeout
    }

    /// Records a new connection, closing the longest-waiting one when too many are open.
    func register(_ channel: any Channel) -> Key {
        let (key, victim) = state.withLock { state -> (Key, (any Channel)?) in
            let key = state.next
            state.next += 1
            state.entries[key] = Entry(channel: channel, waiting: .client, since: .now)
            guard state.entries.count > evictionThreshold else { return (key, nil) }
            let oldest = state.entries.lazy.filter { $0.key != key && $0.value.waiting == .client }
                .min { $0.value.since < $1.value.since }
            guard let oldest else { return (key, nil) }
            state.entries[oldest.key] = nil
            return (key, oldest.value.channel)
        }
        victim?.close(promise: nil)
        return key
    }

    /// Notes that the connection `key` now waits on `waiting`, as of now.
    func update(_ key: Key, waiting: Waiting) {
        state.withLock { state in
            state.entries[key]?.waiting = waiting
            state.entries[key]?.since = .now
        }
    }

    func unregister(_ key: Key) {
        _ = state.withLock { $0.entries.removeValue(forKey: key) }
    }

    /// How many connections are open.
    var count: Int { state.withLock { $0.entries.count } }
}
