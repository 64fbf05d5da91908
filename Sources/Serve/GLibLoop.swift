import CGStreamer
import CameraErrors
import GStreamer
import PipelineFiles
import Session
import Dispatch
import Foundation
import Synchronization

/// A GLib main loop on a thread of its own: libsoup and gst-rtsp-server run their sockets and clients from a
/// GMainContext, and their objects are used from that context's thread only. `sync` and `async` run Swift
/// code there.
final class GLibLoop: Sendable {
    /// `@unchecked Sendable`: the GMainContext and GMainLoop pointers are only passed to GLib calls documented
    /// thread-safe (g_main_context_invoke_full, g_main_loop_quit, g_main_context_is_owner); the objects are
    /// reference counted and freed once the loop thread has ended.
    private struct Handles: @unchecked Sendable {
        let context: OpaquePointer
        let loop: OpaquePointer
    }

    private let handles: Handles
    private let ended = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(true)

    init(name: String) {
        GStreamerRuntime.ensureInitialized()
        let context = g_main_context_new()!
        handles = Handles(context: context, loop: g_main_loop_new(context, 0)!)
        let handles = handles
        let started = DispatchSemaphore(value: 0)
        let ended = ended
        let thread = Thread {
            // Objects made on this thread (a SoupServer's listening sockets) attach to this context.
            g_main_context_push_thread_default(handles.context)
            g_main_context_invoke(handles.context, { data in
                Unmanaged<SemaphoreBox>.fromOpaque(data!).takeRetainedValue().semaphore.signal()
                return 0
            }, Unmanaged.passRetained(SemaphoreBox(started)).toOpaque())
            g_main_loop_run(handles.loop)
            g_main_context_pop_thread_default(handles.context)
            ended.signal()
        }
        thread.name = name
        thread.start()
        started.wait()
    }

    deinit {
        stop()
        g_main_loop_unref(handles.loop)
        g_main_context_unref(handles.context)
    }

    /// The loop's context, when called on its thread (as everything touching the servers is).
    static var currentContext: OpaquePointer? { g_main_context_get_thread_default() }

    /// Whether the caller is on the loop's thread.
    var isCurrent: Bool { g_main_context_is_owner(handles.context) != 0 }

    /// Runs `body` on the loop's thread (at once when already there, or when the loop has ended: then no
    /// other thread uses its objects) and returns what it returns or throws.
    func sync<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        if isCurrent || !running.load(ordering: .relaxed) { return try body() }
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        async {
            let outcome = Result { try body() }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// Runs `body` on the loop's thread soon; never on the caller's stack.
    func async(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ClosureBox(body)).toOpaque()
        g_main_context_invoke_full(handles.context, G_PRIORITY_DEFAULT, { data in
            Unmanaged<ClosureBox>.fromOpaque(data!).takeUnretainedValue().body()
            return 0  // G_SOURCE_REMOVE
        }, box, { data in
            Unmanaged<ClosureBox>.fromOpaque(data!).release()
        })
    }

    /// Ends the loop and waits for its thread (unless called from it).
    func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        g_main_loop_quit(handles.loop)
        if !isCurrent { ended.wait() }
    }
}

private final class ClosureBox: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

private final class SemaphoreBox: Sendable {
    let semaphore: DispatchSemaphore
    init(_ semaphore: DispatchSemaphore) { self.semaphore = semaphore }
}
