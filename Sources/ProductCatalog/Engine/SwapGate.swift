import Foundation

/// Where an engine's readers and editor stop while its own replacing import swaps files: each
/// drops its connection to the live file, and new requests wait until the new file is in place.
///
/// SQLite lets a file in WAL mode be renamed over only by a connection alone on it (see
/// ``CatalogBuild``). The swap closes the gate and asks each participant (a queue that owns a
/// connection) to drop it; a participant drops it at its next turn, whether that is the request
/// it had in hand finishing or the close queued for it, and acknowledges. The swap goes on once
/// all have, or after ``patience`` (then the file is copied into instead of renamed over).
/// (A lock rather than `Mutex`, which needs iOS 18.)
final class SwapGate: @unchecked Sendable {
    private let condition = NSCondition()
    private let participants: Int
    /// Touched only under `condition`'s lock.
    private var closed = false
    private var holding = Set<Int>()

    /// How long a swap waits for the participants to drop their connections.
    static let patience: TimeInterval = 5

    init(participants: Int) {
        self.participants = participants
    }

    /// Closes the gate, asks each participant to drop its connection (`ask` queues that on its
    /// queue), and waits until every one has or ``patience`` runs out.
    func close(asking ask: (Int) -> Void) {
        condition.lock()
        closed = true
        holding = Set(0..<participants)
        condition.unlock()
        for participant in 0..<participants { ask(participant) }
        let deadline = Date(timeIntervalSinceNow: Self.patience)
        condition.lock()
        while !holding.isEmpty, condition.wait(until: deadline) {}
        condition.unlock()
    }

    /// Opens the gate: waiting requests go on.
    func open() {
        condition.lock()
        closed = false
        holding.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// What `participant` does at the start of each request: while the gate is closed, drops its
    /// connection (`drop`) if it still holds one, and waits until the gate opens.
    func pass(_ participant: Int, dropping drop: () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        guard closed else { return }
        if holding.remove(participant) != nil {
            drop()
            condition.broadcast()
        }
        while closed { condition.wait() }
    }

    /// What the close queued for `participant` does: drops its connection if the gate still waits for it.
    func acknowledge(_ participant: Int, dropping drop: () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        guard closed, holding.remove(participant) != nil else { return }
        drop()
        condition.broadcast()
    }
}
