import Dispatch

/// State that lives on one serial Dispatch queue, because the SQLite calls made with it block.
///
/// Blocking calls must not run on the Swift concurrency pool: with two cores, two slow writes
/// would stop every other request. Each queue owns its state (connections are not `Sendable`);
/// ``run(_:)`` hops to the queue, runs the body with the state, and resumes the caller.
final class DatabaseQueue<State>: @unchecked Sendable {
    fileprivate let queue: DispatchQueue
    /// Touched only on `queue`.
    fileprivate var state: State

    init(label: String, state: State) {
        queue = DispatchQueue(label: label)
        self.state = state
    }

    /// Runs `body` on the queue with the state, after the bodies queued before it.
    func run<T: Sendable>(_ body: @escaping @Sendable (inout State) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body(&self.state) })
            }
        }
    }
}

extension DatabaseQueue {
    /// Queues `body` after the bodies queued before it, without waiting for it.
    func enqueue(_ body: @escaping @Sendable (inout State) -> Void) {
        queue.async { body(&self.state) }
    }
}
