import Dispatch
import Glibc
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM, for the whole process.
///
/// `Interrupt.install()` runs first thing in main, so a signal is never lost however early it comes. A command
/// that holds a camera registers what the first signal does (`Interrupt { session.stop() }`): the session stops,
/// so the pipeline reaches NULL and no partial file stays, and the command exits with status 130. A signal with
/// no handler registered, and any second signal, ends the process at once with status 130: a second Ctrl-C
/// always works, whatever the first one is still waiting for.
package final class Interrupt: Sendable {
    private struct State {
        var handler: (@Sendable () -> Void)?
        var received = 0
    }

    private static let state = Mutex(State())
    // DispatchSourceSignal is documented thread-safe for resume/cancel; they are made once and kept alive here.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Catches SIGINT and SIGTERM from now on. Call it as main.swift's first statement, outside any async
    /// function: a nonisolated async function runs on a pool thread, and meanwhile a signal would find a thread
    /// (that one) that does not block it, and end the process the default way.
    package static func install() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        // Blocked in this thread and so in every thread made later: the signals then wait, pending, for the
        // signal sources (libdispatch reads them through a signalfd), however early they come. Not SIG_IGN: that
        // would discard one already pending, e.g. sent before main() to a process started with them blocked.
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        for number in [SIGINT, SIGTERM] {
            // A thread that existed before main() (a preloaded library's) may not block them, and the default action
            // would end the process before the sources are ready. This handler does what libdispatch's own does once
            // they are: block the signal in that thread and send it again, so it waits for the sources.
            signal(number) { number in
                var blocked = sigset_t()
                sigemptyset(&blocked)
                sigaddset(&blocked, number)
                pthread_sigmask(SIG_BLOCK, &blocked, nil)
                kill(getpid(), number)
            }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { received() }
            source.resume()
            sources.append(source)
        }
    }

    private static func received() {
        let handler: (@Sendable () -> Void)? = state.withLock { state in
            state.received += 1
            return state.received == 1 ? state.handler : nil
        }
        guard let handler else {
            // Nothing registered to clean up, or the cleanup is already under way: end now. write(2), not
            // buffered output: another thread may hold stdio's lock.
            let message = Array("gstcam: interrupted\n".utf8)
            _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            _exit(ExitStatus.interrupted.rawValue)
        }
        // Off the signal source's queue, so a second signal is seen while the handler runs.
        DispatchQueue.global().async(execute: handler)
    }

    /// Registers what the first signal does while this value lives (one at a time).
    package init(_ handler: @escaping @Sendable () -> Void) {
        Self.state.withLock { $0.handler = handler }
    }

    deinit {
        Self.state.withLock { $0.handler = nil }
    }

    /// Whether a signal came.
    package var didFire: Bool { Self.state.withLock { $0.received > 0 } }
}
