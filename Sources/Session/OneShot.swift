import Synchronization
import CameraErrors

/// A value that arrives once, from any thread (often a GStreamer streaming thread), awaited by async code
/// with a deadline. The first `succeed`/`fail` wins; later ones are ignored.
final class OneShot<Value: Sendable>: Sendable {
    private enum Slot {
        case empty
        case waiting(CheckedContinuation<Value, any Error>)
        case done(Result<Value, any Error>)
    }

    private let slot = Mutex<Slot>(.empty)

    func succeed(_ value: Value) { complete(.success(value)) }
    func fail(_ error: any Error) { complete(.failure(error)) }

    private func complete(_ result: Result<Value, any Error>) {
        let waiter: CheckedContinuation<Value, any Error>? = slot.withLock { slot in
            switch slot {
            case .done: return nil
            case .empty:
                slot = .done(result)
                return nil
            case .waiting(let continuation):
                slot = .done(result)
                return continuation
            }
        }
        waiter?.resume(with: result)
    }

    /// Waits for the value; after `timeout` fails with `CameraError.timeout(what:)`.
    func value(timeout: Duration, what: String) async throws -> Value {
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            self?.fail(CameraError.timeout(what: what, seconds: timeout.inSeconds))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Value, any Error>? = slot.withLock { slot in
                switch slot {
                case .done(let result): return result
                case .empty, .waiting:
                    slot = .waiting(continuation)
                    return nil
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
