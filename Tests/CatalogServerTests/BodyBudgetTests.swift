import Synchronization
import Testing
@testable import CatalogServer

@Suite struct BodyBudgetTests {
    /// Twenty requests of 4 bytes through a budget of 10: never more than two in hand at once, and every one served.
    @Test func requestsOverTheBudgetWaitTheirTurnAndAllAreServed() async throws {
        let budget = BodyBudget(capacity: 10)
        let inHand = Tally()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await budget.withBudget(bytes: 4) {
                        inHand.state.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                        for _ in 0..<10 { await Task.yield() }
                        inHand.state.withLock { $0.now -= 1; $0.served += 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(inHand.state.withLock { $0.most } <= 2)
        #expect(inHand.state.withLock { $0.served } == 20)
    }

    /// A body larger than the whole budget is charged the whole budget, so it runs alone rather than never.
    @Test func aBodyLargerThanTheBudgetRunsAlone() async throws {
        let budget = BodyBudget(capacity: 10)
        let ran = try await budget.withBudget(bytes: 1_000) { true }
        #expect(ran)
        // The charge was given back: a full-budget body fits again.
        #expect(try await budget.withBudget(bytes: 10) { true })
    }

    @Test func theChargeIsGivenBackWhenTheBodyFails() async throws {
        struct Failure: Error {}
        let budget = BodyBudget(capacity: 10)
        await #expect(throws: Failure.self) { try await budget.withBudget(bytes: 10) { throw Failure() } }
        #expect(try await budget.withBudget(bytes: 10) { true })
    }
}

/// Counters shared by the tasks of a test.
private final class Tally: Sendable {
    let state = Mutex((now: 0, most: 0, served: 0))
}
