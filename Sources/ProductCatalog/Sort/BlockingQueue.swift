import Foundation

/// A bounded, blocking queue between two threads, closed by either side.
///
/// The importer's two stages each run on their own core and pass buffers through a pair of
/// blocking queues: full buffers one way, empty ones back. The bound keeps memory constant; closing
/// wakes the other side, with an error when the closing side failed.
final class BlockingQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private let capacity: Int
    private var closed = false
    private var failure: (any Error)?

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// Waits for room, then adds `item`; returns false (dropping it) when the queue is closed.
    @discardableResult
    func put(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Waits for an item; nil once the queue is closed and empty. Throws the closer's error.
    func take() throws -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed { condition.wait() }
        if let failure { throw failure }
        guard !items.isEmpty else { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// No more items will come; with an `error`, the taker stops with it at once.
    func close(throwing error: (any Error)? = nil) {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        if failure == nil { failure = error }
        condition.broadcast()
    }
}

/// Runs `body` on a thread of its own, and waits for it.
///
/// The stages hand buffers over only through ``BlockingQueue``s, so what `body` captures is used by
/// one thread at a time even though the compiler cannot see it.
final class Worker<Result>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Swift.Result<Result, any Error>?
    private var joined = false

    init(_ body: @escaping () throws -> Result) {
        let work = UncheckedSendable(body)
        let thread = Thread { [self] in
            outcome = Swift.Result { try work.value() }
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Waits for the thread to finish and returns what it returned, or throws what it threw.
    ///
    /// Call it from one thread only; calling it again returns the same outcome.
    func join() throws -> Result {
        if !joined {
            done.wait()
            joined = true
        }
        return try outcome!.get()
    }
}

private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
