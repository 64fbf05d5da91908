import Foundation
import Testing
import GstCamera

/// A `gstcam preview` (or `capture --preview`) running in the background with its own photo folder, runtime
/// folder and virtual camera state, its output going to files the test reads while it runs.
final class ScreenProcess: BackgroundGstcam {
    var photos: String { folder + "/photos" }
    var runtime: String { folder + "/run" }

    /// `beforeStart` gets the folder before gstcam starts (e.g. to unplug a camera of its virtual camera state).
    init(_ arguments: [String], devices: String = "/dev/video0=uvc;/dev/video2=sensor", stdin: FileHandle? = nil,
         beforeStart: (String) throws -> Void = { _ in }) throws {
        let folder = try makeTemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/run", withIntermediateDirectories: true)
        chmod(folder + "/run", 0o700)
        try FileManager.default.createDirectory(atPath: folder + "/vcam", withIntermediateDirectories: true)
        try beforeStart(folder)
        try super.init(arguments, environment: Self.environment(in: folder, devices: devices), stdin: stdin, folder: folder)
    }

    /// The environment the process runs in, for helpers that must see the same cameras and folders.
    func environment(devices: String = "/dev/video0=uvc;/dev/video2=sensor") -> [String: String] {
        Self.environment(in: folder, devices: devices)
    }

    private static func environment(in folder: String, devices: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["VCAM_DEVICES"] = devices
        environment["VCAM_STATE_DIR"] = folder + "/vcam"
        environment["GSTCAM_PHOTO_DIR"] = folder + "/photos"
        environment["GSTCAM_VIDEO_DIR"] = folder + "/videos"  // recordings (`r`, the page's record button) stay in the folder
        environment["XDG_RUNTIME_DIR"] = folder + "/run"
        return environment
    }

    var savedPhotos: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: photos)) ?? []).filter { $0.hasPrefix("IMG_") }.sorted().map { photos + "/" + $0 }
    }
}

/// Real X input through the XTEST extension (xdotool), as a person at the window would give it.
func xdotool(_ arguments: String...) throws {
    let result = try runProcess("/usr/bin/xdotool", arguments)
    #expect(result.status == 0, "xdotool \(arguments): \(result.error)")
}

/// The whole X screen as RGB.
func screenshot(into folder: String, name: String = "screen.png") throws -> (width: Int, height: Int, rgb: [UInt8]) {
    let path = folder + "/" + name
    let grab = try runProcess("/usr/bin/import", ["-window", "root", path])
    #expect(grab.status == 0, "\(grab.error)")
    return try decodeImage(path)
}

/// How many pixels in the rectangle are within `tolerance` of `color`.
func countPixels(_ image: (width: Int, height: Int, rgb: [UInt8]), near color: (Int, Int, Int), tolerance: Int,
                 x: Range<Int>, y: Range<Int>) -> Int {
    var count = 0
    for row in y where row < image.height {
        for column in x where column < image.width {
            let offset = (row * image.width + column) * 3
            if abs(Int(image.rgb[offset]) - color.0) <= tolerance, abs(Int(image.rgb[offset + 1]) - color.1) <= tolerance,
               abs(Int(image.rgb[offset + 2]) - color.2) <= tolerance { count += 1 }
        }
    }
    return count
}

func pixel(_ image: (width: Int, height: Int, rgb: [UInt8]), _ x: Int, _ y: Int) -> (Int, Int, Int) {
    let offset = (y * image.width + x) * 3
    return (Int(image.rgb[offset]), Int(image.rgb[offset + 1]), Int(image.rgb[offset + 2]))
}

/// The first top-level window on the X screen (there is no window manager under Xvfb), waiting up to `timeout`.
func firstWindow(timeout: Double = 5) throws -> UInt? {
    let end = Date().addingTimeInterval(timeout)
    repeat {
        let tree = try runProcess("/usr/bin/xwininfo", ["-root", "-children"]).output
        for line in tree.split(separator: "\n") {
            let word = line.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
            if word.hasPrefix("0x"), let id = UInt(word.dropFirst(2), radix: 16), line.contains("x480+") { return id }
        }
        Thread.sleep(forTimeInterval: 0.05)
    } while Date() < end
    return nil
}

/// Asks a window to close the way a window manager does when its close button is pressed: a WM_DELETE_WINDOW
/// client message (through libX11 from Python's ctypes; xdotool's windowclose destroys the window instead).
/// The sender waits for the server's answer (XSync) before it exits: after a bare XFlush a busy server now and then
/// never delivered the message (it did not reach the sink's connection at all), presumably seeing the sender's
/// connection close before reading it, and the preview ran on as if nobody had pressed close.
func closeLikeAWindowManager(_ window: UInt) throws {
    let script = """
    import ctypes, sys
    x = ctypes.CDLL("libX11.so.6")
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XInternAtom.restype = ctypes.c_ulong
    x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
    x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    class ClientMessage(ctypes.Structure):
        _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                    ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                    ("format", ctypes.c_int), ("data", ctypes.c_long * 5), ("pad", ctypes.c_long * 12)]
    display = x.XOpenDisplay(None)
    event = ClientMessage(type=33, window=int(sys.argv[1]), format=32)
    event.message_type = x.XInternAtom(display, b"WM_PROTOCOLS", 0)
    event.data[0] = x.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
    ok = x.XSendEvent(display, int(sys.argv[1]), 0, 0, ctypes.byref(event))
    x.XSync(display, 0)
    sys.exit(0 if ok else 1)
    """
    let result = try runProcess("/usr/bin/python3", ["-c", script, String(window)])
    #expect(result.status == 0, "\(result.error)")
}

/// One shell command in a detached tmux session on a private server (a terminal nobody else uses), with what the
/// terminal tests read of it: the screen, files the command wrote into `folder`, and waiting for a condition.
class TmuxSession {
    let folder: String
    let server: String
    /// Variables the command gets (tmux itself is run with them too, so its server sees the same).
    let variables: [String: String]

    /// `display`: the DISPLAY the command gets (none when nil).
    init(folder: String, serverPrefix: String, command: String, variables: [String: String], display: String? = nil) {
        self.folder = folder
        server = "\(serverPrefix)-\(UUID().uuidString.prefix(8))"
        self.variables = variables
        // Through system(3), not Process: the tmux server daemon inherits the descriptors Foundation watches to see
        // a child end, so waiting on a Process that starts it never returns.
        let quoted = command.replacingOccurrences(of: "'", with: "'\\''")
        var line = "exec env " + (display.map { "DISPLAY='\($0)'" } ?? "-u DISPLAY")
        for (key, value) in variables.sorted(by: { $0.key < $1.key }) { line += " \(key)='\(value)'" }
        line += " /usr/bin/tmux -L \(server) new-session -d -x 100 -y 30 '\(quoted)' </dev/null >/dev/null 2>&1"
        #expect(system(line) == 0)
    }

    /// The test's environment with the command's variables: for tmux and for other programs on the same cameras.
    var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(variables) { $1 }
    }

    func tmux(_ arguments: String...) throws -> String {
        try runProcess("/usr/bin/tmux", ["-L", server] + arguments, environment: environment).output
    }

    /// The screen as text, or with colour escapes (`-e`).
    func screen(colours: Bool = false) throws -> String {
        try tmux("capture-pane", "-p", "-t", "0", colours ? "-e" : "-J")
    }

    func wait(_ timeout: Double = 5, until condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try condition()
    }

    func file(_ name: String) -> String? { try? String(contentsOfFile: folder + "/" + name, encoding: .utf8) }

    func remove() {
        // kill-server makes the server SIGTERM itself, which it inherited blocked from the test's concurrency
        // thread (see killAndWait): end it with SIGKILL, and the command in it with SIGHUP.
        if let pid = try? tmux("display-message", "-p", "#{pid}").trimmingCharacters(in: .whitespacesAndNewlines),
           let number = Int32(pid) {
            _ = try? tmux("kill-server")
            kill(number, SIGKILL)
        }
        try? FileManager.default.removeItem(atPath: folder)
    }
}

extension ScreenProcess {
    /// A camera screen with no window on the test pattern (`extra` arguments added) for `seconds`, once its socket is
    /// there; the socket's path with it.
    static func testPattern(seconds: Int, _ extra: [String] = []) throws -> (screen: ScreenProcess, socket: String) {
        let screen = try ScreenProcess(["preview", "--sink", "none", "--duration", String(seconds), "--pipeline", "test-pattern"] + extra)
        let socket = screen.runtime + "/gstcam-test-pattern.sock"
        #expect(screen.wait { FileManager.default.fileExists(atPath: socket) }, "no socket: \(screen.errors)")
        return (screen, socket)
    }
}
