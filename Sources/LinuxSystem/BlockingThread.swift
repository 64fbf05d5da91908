import Glibc

/// A POSIX thread of its own for work that blocks — a bus read, a socket's accept, the terminal's keys, a sleep
/// between ticks — started at once and never joined. Foundation's `Thread` does the same, but linking it brings
/// in CoreFoundation and ICU: 3.6 MB more peak memory and a slower start for every gstcam command (issue 13).
public enum BlockingThread {
    /// Runs `body` on a new detached thread named `name` (as `top -H` and `gdb` show it; Linux keeps 15 bytes).
    /// A thread that cannot be made (the process is at its limit) is a fatal error: the caller's work would
    /// otherwise silently never run.
    public static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
        let result = create(running: context)
        guard result == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            fatalError("gstcam cannot start its \(name) thread: \(String(cString: strerror(result)))")
        }
    }

    /// pthread_create for a detached thread that runs the `Work` at `context` (it takes over the reference).
    private static func create(running context: UnsafeMutableRawPointer) -> Int32 {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        return pthread_create(&thread, &attributes, { context in
            BlockingThread.run(context)
            return nil
        }, context)
    }

    /// The new thread's start: names it and runs its work.
    private static func run(_ context: UnsafeMutableRawPointer?) {
        guard let context else { return }
        let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
        nameThisThread(work.name)
        work.body()
    }

    /// Names the calling thread through /proc (what pthread_setname_np does, which Glibc's Swift module does not
    /// declare). A name that cannot be set only leaves the thread unnamed.
    private static func nameThisThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    private final class Work: Sendable {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
