import Synchronization

/// An async lock without reentrancy: operations that reconfigure the pipeline (a photo, a camera switch)
/// wait for each other instead of interleaving. Waiters go in order of arrival.
final class TurnTaking: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func begin() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let runNow = state.withLock { state in
                if state.busy {
                    state.waiting.append(continuation)
                    return false
                }
                state.busy = true
                return true
            }
            if runNow { continuation.resume() }
        }
    }

    /// Whether an operation waits for the turn (a long one, such as a burst, then lets it go between photos).
    var isAwaited: Bool { state.withLock { !$0.waiting.isEmpty } }

    func end() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
