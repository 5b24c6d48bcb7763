/// A bound on the request bodies read and handled at once, so memory stays bounded however many
/// clients send large bodies together.
///
/// Decoding a JSON object and checking its fields takes several times the body's size in memory
/// (a 1.6 MB object of 100,000 keys, about 15 times), so 64 such requests at once once took over
/// a gigabyte. Each request charges its body's size (its `Content-Length`, or the most a body may
/// be when it does not say) before reading it and gives it back when its answer is ready;
/// requests that do not fit wait their turn, first come first served.
actor BodyBudget {
    /// The bytes of bodies that may be in hand at once.
    let capacity: Int
    private var used = 0
    private var waiting: [(bytes: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Runs `body` once `bytes` (at most the whole capacity) fit in the budget.
    nonisolated func withBudget<T: Sendable>(bytes: Int, _ body: () async throws -> T) async throws -> T {
        let charge = max(1, min(bytes, capacity))
        await acquire(charge)
        do {
            let result = try await body()
            await release(charge)
            return result
        } catch {
            await release(charge)
            throw error
        }
    }

    private func acquire(_ bytes: Int) async {
        if waiting.isEmpty, used + bytes <= capacity {
            used += bytes
            return
        }
        await withCheckedContinuation { waiting.append((bytes, $0)) }
    }

    private func release(_ bytes: Int) {
        used -= bytes
        while let next = waiting.first, used + next.bytes <= capacity {
            waiting.removeFirst()
            used += next.bytes
            next.continuation.resume()
        }
    }
}
