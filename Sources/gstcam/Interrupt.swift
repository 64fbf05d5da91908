import Dispatch
import Glibc
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM handling: the first signal runs the handler (which stops the camera so the
/// pipeline reaches NULL and no partial file stays); the command then exits with status 130.
final class Interrupt: Sendable {
    private let fired = Atomic<Bool>(false)
    // DispatchSourceSignal is documented thread-safe for resume/cancel; kept only to stay alive.
    nonisolated(unsafe) private var sources: [any DispatchSourceSignal] = []

    init(_ handler: @escaping @Sendable () -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self, !self.fired.exchange(true, ordering: .relaxed) else { return }
                handler()
            }
            source.resume()
            sources.append(source)
        }
    }

    var didFire: Bool { fired.load(ordering: .relaxed) }
}
