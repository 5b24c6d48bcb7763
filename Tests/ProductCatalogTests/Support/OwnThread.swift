import Foundation

/// Runs blocking `work` on a thread of its own and waits for its result.
///
/// A test that polls in a loop must not do it on a thread of the concurrency pool: the pool has
/// one thread per core, and two such loops at once leave nothing for the tasks they wait on.
func onAThreadOfItsOwn<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Swift.Result { try work() }) }.start()
    }
}
