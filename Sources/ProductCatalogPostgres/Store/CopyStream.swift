import Dispatch
import NIOCore
import PostgresNIO
import Synchronization

/// A `COPY table FROM STDIN` fed from a synchronous thread: ``send(_:)`` hands over a buffer and
/// blocks while ``depth`` buffers are still on their way, so reading never runs ahead of the server.
final class CopyStream: Sendable {
    /// Buffers handed over but not yet written to the connection.
    static let depth = 4
    private let continuation: AsyncStream<ByteBuffer>.Continuation
    private let room = DispatchSemaphore(value: depth)
    private let failure = FirstFailure()
    private let task: Task<Void, any Error>

    /// Starts the `COPY` into `table` (all its columns, in order) on `session`.
    init(session: PostgresSession, table: String) {
        let (stream, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
        self.continuation = continuation
        let room = self.room
        let failure = self.failure
        task = Task {
            do {
                try await session.connection.copyFrom(table: table, logger: PostgresSession.logger) { writer in
                    // Keeps taking buffers after a failure, so that a sender never waits for room forever.
                    for await buffer in stream {
                        defer { room.signal() }
                        guard failure.error == nil else { continue }
                        do {
                            try await writer.write(buffer)
                        } catch {
                            failure.record(error)
                        }
                    }
                    if let error = failure.error { throw error }
                }
            } catch {
                failure.record(error)
                throw PostgresCatalogError.wrap(error, location: session.location, doing: "copy the rows into \(table)")
            }
        }
    }

    /// Hands `buffer` to the server, waiting while ``depth`` buffers are on their way.
    func send(_ buffer: ByteBuffer) throws {
        room.wait()
        if failure.error != nil {
            room.signal()
            try finish()
        }
        continuation.yield(buffer)
    }

    /// Ends the data and waits for the server to accept it; throws what went wrong on the way.
    func finish() throws {
        continuation.finish()
        let task = self.task
        try blocking { try await task.value }
    }

    /// Stops the copy; the server discards what it received.
    func cancel() {
        failure.record(CancellationError())
        continuation.finish()
        task.cancel()
    }
}

/// The first error met by either side of a ``CopyStream``.
private final class FirstFailure: Sendable {
    private let value = Mutex<(any Error)?>(nil)

    var error: (any Error)? { value.withLock { $0 } }

    func record(_ error: any Error) {
        value.withLock { if $0 == nil { $0 = error } }
    }
}
