import CGStreamer
import Dispatch
import Glibc
import Synchronization
import GStreamer
import LinuxSystem

/// A display server a window can be opened on.
enum DisplayServer: Sendable, Equatable {
    /// `DISPLAY` (e.g. ":0"), answering.
    case x11(display: String)
    /// `WAYLAND_DISPLAY` (e.g. "wayland-0"), answering.
    case wayland(display: String)
}

/// Whether the display the environment names answers, checked before a window is chosen: a `DISPLAY` whose server
/// is gone makes autovideosink walk its ranks into a framebuffer sink that crashes (DirectFB), and ximagesink
/// fail with a bare "refused the state change".
enum DisplayCheck {
    enum Outcome: Sendable, Equatable {
        /// Neither `DISPLAY` nor `WAYLAND_DISPLAY` is set.
        case noDisplay
        case answers(DisplayServer)
        /// Set, but nothing usable answers: `variable=value` and why, in words.
        case silent(variable: String, value: String, reason: String)

        /// "DISPLAY=:99 does not answer (nothing listens on /tmp/.X11-unix/X99)"
        public var problem: String? {
            guard case let .silent(variable, value, reason) = self else { return nil }
            return "\(variable)=\(value) does not answer (\(reason))"
        }
    }

    /// Wayland first (a Wayland session's DISPLAY is XWayland, the lesser choice), then X11.
    static func check(_ environment: [String: String]) -> Outcome {
        var silent: Outcome?
        if let name = environment["WAYLAND_DISPLAY"], !name.isEmpty {
            let runtime = environment["XDG_RUNTIME_DIR"] ?? ""
            let path = name.hasPrefix("/") ? name : runtime + "/" + name
            if let reason = connectFailure(unixPath: path) {
                silent = .silent(variable: "WAYLAND_DISPLAY", value: name, reason: reason)
            } else {
                return .answers(.wayland(display: name))
            }
        }
        if let display = environment["DISPLAY"], !display.isEmpty {
            if let reason = x11Failure(display) {
                return .silent(variable: "DISPLAY", value: display, reason: reason)
            }
            return .answers(.x11(display: display))
        }
        return silent ?? .noDisplay
    }

    /// Why the X server of `display` (`[host]:number[.screen]`) cannot be used, or nil when it answers: its socket
    /// must accept a connection, then XOpenDisplay (libX11, loaded when present) must succeed within 3 s — a
    /// server that refuses us (authorization) is as useless as none.
    static func x11Failure(_ display: String) -> String? {
        guard let colon = display.lastIndex(of: ":"),
              let number = Int(display[display.index(after: colon)...].split(separator: "." as Character).first ?? "") else {
            return "it is not of the form :N or host:N"
        }
        let host = String(display[..<colon])
        if host.isEmpty || host == "unix" {
            let path = "/tmp/.X11-unix/X\(number)"
            // Linux X servers also listen on the abstract socket of that name (no file needed).
            if let reason = connectFailure(unixPath: path), connectFailure(unixPath: "\0" + path) != nil {
                return reason
            }
        } else if let reason = connectFailure(host: host, port: 6000 + number) {
            return reason
        }
        return openDisplayFailure(display)
    }

    /// nil when a stream socket connects to `unixPath` (a leading NUL: the abstract namespace).
    static func connectFailure(unixPath: String) -> String? {
        let shown = unixPath.hasPrefix("\0") ? "@" + unixPath.dropFirst() : unixPath
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(unixPath.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return "the socket path \(shown) is too long" }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let made = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard made >= 0 else { return "no socket: \(String(cString: strerror(errno)))" }
        let socketFile = FileDescriptor(owning: made)  // closed when the check returns
        let fd = socketFile.rawValue
        let length = socklen_t(MemoryLayout.offset(of: \sockaddr_un.sun_path)! + bytes.count)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        guard result != 0 else { return nil }
        return errno == ENOENT || errno == ECONNREFUSED
            ? "nothing listens on \(shown)" : "\(shown): \(String(cString: strerror(errno)))"
    }

    /// nil when a TCP connection to `host`:`port` is accepted within 2 s.
    static func connectFailure(host: String, port: Int) -> String? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            return "the host \(host) is not known"
        }
        defer { freeaddrinfo(list) }
        let made = socket(first.pointee.ai_family, first.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard made >= 0 else { return "no socket: \(String(cString: strerror(errno)))" }
        let socketFile = FileDescriptor(owning: made)  // closed when the check returns
        let fd = socketFile.rawValue
        if connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { return "\(host):\(port): \(String(cString: strerror(errno)))" }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&descriptor, 1, 2000) == 1 else { return "\(host):\(port) did not answer within 2 s" }
            var error: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
            if error != 0 { return "\(host):\(port): \(String(cString: strerror(error)))" }
        }
        return nil
    }

    private typealias OpenDisplay = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?

    /// The connections the checks opened, kept until the process ends: an X server started without `-noreset`
    /// (Xvfb under xvfb-run) resets when its last client leaves and refuses connections meanwhile, so closing
    /// the check's connection would make the window sink's own, a moment later, fail now and then.
    private static let keptConnections = Mutex<[UInt]>([])

    private typealias ScreenOfDisplay = @convention(c) (OpaquePointer?) -> Int32
    private typealias DisplayDimension = @convention(c) (OpaquePointer?, Int32) -> Int32

    /// The size of the X screen a check connected to (its default screen), nil without such a connection: the
    /// window is opened no larger than it.
    static func x11ScreenSize() -> (width: Int, height: Int)? {
        guard let connection = keptConnections.withLock({ $0.first }).flatMap({ OpaquePointer(bitPattern: $0) }),
              let library = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL),
              let screenOf = dlsym(library, "XDefaultScreen"), let width = dlsym(library, "XDisplayWidth"),
              let height = dlsym(library, "XDisplayHeight") else { return nil }
        let screen = unsafeBitCast(screenOf, to: ScreenOfDisplay.self)(connection)
        let size = (Int(unsafeBitCast(width, to: DisplayDimension.self)(connection, screen)),
                    Int(unsafeBitCast(height, to: DisplayDimension.self)(connection, screen)))
        return size.0 > 0 && size.1 > 0 ? size : nil
    }

    /// XOpenDisplay through dlopen (no libX11 link for a command that may never open a window), on a thread of
    /// its own so a server that accepts but never answers costs 3 s, not a hang.
    static func openDisplayFailure(_ display: String) -> String? {
        guard let library = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL), let open = dlsym(library, "XOpenDisplay") else {
            return nil  // no libX11: the socket answered, which is all that can be known
        }
        let openDisplay = unsafeBitCast(open, to: OpenDisplay.self)
        let outcome = Mutex<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        BlockingThread.start(named: "gstcam-x11-check") {
            let connection = openDisplay(display)
            if let connection { keptConnections.withLock { $0.append(UInt(bitPattern: connection)) } }
            outcome.withLock { $0 = connection != nil }
            done.signal()
        }
        guard done.wait(timeout: .now() + 3) == .success else { return "the X server accepted a connection but did not answer within 3 s" }
        return outcome.withLock { $0 } == true ? nil : "the X server refused the connection (authorization: check XAUTHORITY)"
    }
}

/// The video sinks the camera screen opens a window with, tried in order, instead of autovideosink's rank walk
/// (which can end in a framebuffer sink that crashes when the display is unusable).
enum WindowSink {
    static let x11 = ["xvimagesink", "ximagesink", "glimagesink"]
    static let wayland = ["waylandsink", "glimagesink"]

    /// The first sink of the list for `server` that is installed and opens the display (reaches READY), or why
    /// none did (each sink's own words, e.g. "xvimagesink: Could not initialise Xv output").
    public static func choose(for server: DisplayServer) -> Result<String, WindowSinkFailure> {
        switch server {
        case .x11: return firstWorking(x11)
        case .wayland: return firstWorking(wayland)
        }
    }

    static func firstWorking(_ factories: [String]) -> Result<String, WindowSinkFailure> {
        GStreamerRuntime.ensureInitialized()
        var reasons: [String] = []
        for factory in factories {
            guard let element = gst_element_factory_make(factory, nil) else {
                reasons.append("\(factory): not installed")
                continue
            }
            let sink = Element(owning: element)
            // A bus of its own: an element outside a pipeline has nowhere to post why it failed.
            let bus = Bus(owning: gst_bus_new())
            gst_element_set_bus(sink.pointer, bus.pointer)
            let works = sink.setState(GST_STATE_READY) != .failure
            sink.setState(GST_STATE_NULL)
            if works { return .success(factory) }
            var reason = "refused to open the display"
            while let message = bus.pop(timeout: 0) {
                if case let .error(error) = message { reason = error.message; break }
            }
            reasons.append("\(factory): \(reason)")
        }
        return .failure(WindowSinkFailure(reasons: reasons))
    }
}

/// Why no window sink could be used: one line per sink tried.
struct WindowSinkFailure: Error, Sendable, Equatable {
    let reasons: [String]
}
