import Glibc

import Synchronization
import Controls
import LinuxSystem
import Session

/// The camera screen in a terminal: preview frames as 24-bit colour half-block characters (each character
/// cell shows two pixels: the upper in the foreground colour of ▀, the lower in the background), fitted to the
/// terminal's size, redrawn at most `maximumRate` times a second, a status line at the bottom, and keys read from
/// stdin in raw mode. `restore()` puts the terminal back; it runs on every way out of `gstcam preview`.
final class TerminalView: ScreenView {
    static let maximumRate = 12.0
    static let input: Int32 = 0
    static let output: Int32 = 1

    private struct State {
        var session: CameraSession
        var status = ""
        var message = ""
        var messageUntil = ContinuousClock.now
        var focus: (point: NormalizedPoint, until: ContinuousClock.Instant)?
        var restored = false
        var started = false
        var size: (columns: Int, rows: Int)?
        /// Shown in the middle of an empty screen while there is no picture (the camera is gone).
        var lastingMessage: String?
        /// Draws the frames of the session shown now.
        var frameReader: Task<Void, Never>?
        /// When a frame was last drawn (with the status line under it).
        var lastFrameDrawn = ContinuousClock.now
        /// The self-timer's seconds left, drawn over the middle of the picture.
        var countdown: Int?
        /// The last photo, drawn small in the top right corner over the picture.
        var thumbnail: PhotoThumbnail?
        /// What failed and the fix, under the lasting message while the camera is gone (the window's error view).
        var error: ErrorView?
    }

    private var session: CameraSession { state.withLock { $0.session } }
    private let original: termios
    private let state: Mutex<State>
    private let stopReading = Atomic<Bool>(false)
    private let keys: AsyncStream<ScreenInput>
    private let keyContinuation: AsyncStream<ScreenInput>.Continuation

    /// Remembers the terminal's settings; fails when stdin is not a terminal.
    public init(session: CameraSession) throws {
        var settings = termios()
        guard isatty(Self.output) != 0, tcgetattr(Self.input, &settings) == 0 else {
            throw ScreenRequestError("--sink terminal needs a terminal on stdin and stdout")
        }
        state = Mutex(State(session: session))
        original = settings
        (keys, keyContinuation) = AsyncStream.makeStream(of: ScreenInput.self)
    }

    func inputs() -> AsyncStream<ScreenInput> { keys }

    func setStatus(_ text: String) {
        let (shown, waiting, framesStopped) = state.withLock { state in
            state.status = text
            return (state.started && !state.restored, state.lastingMessage != nil,
                    ContinuousClock.now - state.lastFrameDrawn > .milliseconds(500))
        }
        guard shown else { return }
        if waiting {
            drawWithoutPicture()
        } else if framesStopped {
            // No frame redraws the line (a stalled camera): the line alone, over the last picture.
            let (columns, rows) = Self.terminalSize()
            write(statusLine(columns: columns, rows: rows))
        }
    }

    /// A message in the middle of the screen, instead of the picture, until called with nil.
    func showLastingMessage(_ text: String?) {
        let draw = state.withLock { state in
            state.lastingMessage = text
            return text != nil && state.started && !state.restored
        }
        if draw { drawWithoutPicture() }
    }

    /// Draws `session`'s frames from now on.
    public func follow(_ session: CameraSession) {
        let frames = session.frames()
        let reader = Task { [self] in
            var lastDraw = ContinuousClock.now - .seconds(1)
            for await frame in frames {
                guard ContinuousClock.now - lastDraw >= .seconds(1 / Self.maximumRate) else { continue }
                lastDraw = .now
                guard !state.withLock({ $0.restored || $0.lastingMessage != nil }) else { continue }
                draw(frame)
            }
        }
        let previous = state.withLock { state in
            defer {
                state.frameReader = reader
                state.session = session
            }
            return state.frameReader
        }
        previous?.cancel()
    }

    func showMessage(_ text: String, for duration: Duration) {
        state.withLock {
            $0.message = text
            $0.messageUntil = .now + duration
        }
    }

    func showCountdown(_ seconds: Int?) {
        state.withLock { $0.countdown = seconds }
    }

    func showLastPhoto(_ thumbnail: PhotoThumbnail) {
        state.withLock { $0.thumbnail = thumbnail }
    }

    func showFocusSquare(at point: NormalizedPoint) {
        state.withLock { $0.focus = (point, .now + .milliseconds(600)) }
    }

    /// Raw keys (no echo, no line editing; Ctrl-C still interrupts), the alternate screen, no cursor; then
    /// draws frames and reads keys until `restore()`.
    public func start() {
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutablePointer(to: &raw.c_cc) {
            $0.withMemoryRebound(to: cc_t.self, capacity: Int(NCCS)) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
        }
        tcsetattr(Self.input, TCSANOW, &raw)
        state.withLock { $0.started = true }
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
        follow(session)
        BlockingThread.start(named: "gstcam-terminal-keys") { [self] in readKeys() }
    }

    /// Puts the terminal back as it was (settings, main screen, cursor). Safe to call more than once.
    func restore() {
        let wasStarted = state.withLock { state -> Bool in
            defer { state.restored = true }
            return state.started && !state.restored
        }
        stopReading.store(true, ordering: .relaxed)
        keyContinuation.finish()
        state.withLock { $0.frameReader }?.cancel()
        guard wasStarted else { return }
        var settings = original
        tcsetattr(Self.input, TCSANOW, &settings)
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
    }

    // MARK: Keys

    private func readKeys() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while !stopReading.load(ordering: .relaxed) {
            var descriptor = pollfd(fd: Self.input, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = read(Self.input, &buffer, buffer.count)
            if count <= 0 {
                // The terminal is gone (hung up, its window closed): the screen ends, as when a window closes.
                if !stopReading.load(ordering: .relaxed) { keyContinuation.yield(.windowClosed(reason: "")) }
                return
            }
            for key in Self.keyNames(Array(buffer[0..<count])) { keyContinuation.yield(.key(key)) }
        }
    }

    /// Terminal bytes as the X keysym names the window's keys use. Escape sequences (arrows, …) are ignored
    /// except a lone Esc.
    static func keyNames(_ bytes: [UInt8]) -> [String] {
        if bytes == [0x1B] { return ["Escape"] }
        if bytes.first == 0x1B { return [] }
        return bytes.compactMap { byte in
            switch byte {
            case 0x20: "space"
            case 0x0D, 0x0A: "Return"
            case UInt8(ascii: "+"): "plus"
            case UInt8(ascii: "-"): "minus"
            case UInt8(ascii: "="): "equal"
            case 0x21...0x7E: String(UnicodeScalar(byte))
            default: nil
            }
        }
    }

    // MARK: Drawing

    /// Rows and columns of the terminal (TIOCGWINSZ), 80×24 when it will not say.
    private static func terminalSize() -> (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 1 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// The error view's text as the window shows it: what failed and the fix, then how the screen comes back.
    func showError(_ view: ErrorView?) {
        let draw = state.withLock { state in
            state.error = view
            return state.lastingMessage != nil && state.started && !state.restored
        }
        if draw { drawWithoutPicture() }
    }

    /// The screen with no picture: the lasting message in the middle (the error's text under it), the status
    /// line at the bottom.
    private func drawWithoutPicture() {
        let (columns, rows) = Self.terminalSize()
        let (status, message, error) = state.withLock { state in
            state.size = (0, 0)  // the next frame clears the screen, as after a resize
            return (state.status, state.lastingMessage ?? "", state.error)
        }
        let shown = String(message.prefix(columns))
        let width = max(12, min(columns - 4, 72))
        let lines = error.map { ErrorView.wrap($0.detail, width: width) + [""] + ErrorView.wrap($0.footer, width: width) } ?? []
        let top = max(1, rows / 2 - (lines.isEmpty ? 0 : 1 + lines.count / 2))
        var text = "\u{1B}[0m\u{1B}[2J\u{1B}[\(top);\(max(1, (columns - shown.count) / 2 + 1))H\u{1B}[1m" + shown + "\u{1B}[0m"
        for (index, line) in lines.enumerated() where top + 2 + index < rows {
            text += "\u{1B}[\(top + 2 + index);\(max(1, (columns - width) / 2 + 1))H" + String(line.prefix(columns))
        }
        text += "\u{1B}[\(rows);1H\u{1B}[7m" + String(status.prefix(columns)) + "\u{1B}[0m\u{1B}[K"
        write(text)
    }

    private func draw(_ frame: Frame) {
        let (columns, rows) = Self.terminalSize()
        // After a resize, clear what the old, differently placed picture left behind.
        let resized = state.withLock { state in
            defer { state.size = (columns, rows) }
            return state.size.map { $0 != (columns, rows) } ?? false
        }
        let now = ContinuousClock.now
        let focus = state.withLock { state in state.focus.flatMap { now < $0.until ? $0.point : nil } }
        var text = (resized ? "\u{1B}[2J" : "") + Self.render(frame, columns: columns, pictureRows: rows - 1, focus: focus)
        if let countdown = state.withLock({ $0.countdown }) {
            // Over the middle of the picture, in the focus square's yellow.
            let label = "  Photo in \(countdown)  "
            text += "\u{1B}[\(max(1, rows / 2));\(max(1, (columns - label.count) / 2 + 1))H\u{1B}[0m\u{1B}[1;30;48;2;255;214;10m" + label + "\u{1B}[0m"
        }
        if let thumbnail = state.withLock({ $0.thumbnail }) { text += Self.corner(thumbnail, columns: columns) }
        text += statusLine(columns: columns, rows: rows)
        state.withLock { $0.lastFrameDrawn = .now }
        write(text)
    }

    /// The status line (a brief message first) in reverse video on the last row.
    private func statusLine(columns: Int, rows: Int) -> String {
        let now = ContinuousClock.now
        let (status, message) = state.withLock { ($0.status, now < $0.messageUntil ? $0.message : "") }
        let line = message.isEmpty ? status : message + "  ·  " + status
        return "\u{1B}[\(rows);1H\u{1B}[0m\u{1B}[7m" + RecordingIndicator.terminalLine(String(line.prefix(columns))) + "\u{1B}[0m\u{1B}[K"
    }

    /// The picture fitted into `columns` × `pictureRows` cells (two pixels per cell), centred, starting at the
    /// top left of the screen; a yellow outline where the focus square is.
    static func render(_ frame: Frame, columns: Int, pictureRows: Int, focus: NormalizedPoint?) -> String {
        guard frame.format == .rgb, frame.width > 0, frame.height > 0, columns > 0, pictureRows > 0 else { return "" }
        let scale = min(Double(columns) / Double(frame.width), Double(pictureRows * 2) / Double(frame.height))
        let width = max(1, Int(Double(frame.width) * scale))
        let height = max(2, Int(Double(frame.height) * scale)) & ~1
        let left = (columns - width) / 2
        var focusBox: (Int, Int, Int, Int)?
        if let focus {
            let side = Double(min(width, height)) * 0.22
            let x = Int(focus.x * Double(width) - side / 2), y = Int(focus.y * Double(height) - side / 2)
            focusBox = (x, y, x + Int(side), y + Int(side))
        }
        func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
            if let (x0, y0, x1, y1) = focusBox, x >= x0, x <= x1, y >= y0, y <= y1,
               x == x0 || x == x1 || y == y0 || y == y1 { return (255, 214, 10) }
            let sourceX = min(frame.width - 1, Int(Double(x) / scale)), sourceY = min(frame.height - 1, Int(Double(y) / scale))
            let offset = sourceY * frame.bytesPerRow + sourceX * 3
            return (frame.bytes[offset], frame.bytes[offset + 1], frame.bytes[offset + 2])
        }
        var text = "\u{1B}[H"
        text.reserveCapacity(width * height / 2 * 40)
        for row in 0..<(height / 2) {
            text += "\u{1B}[\(row + 1);\(left + 1)H"
            // A colour is sent only when it changes: flat areas cost one byte per cell instead of ~40.
            var previous: ((UInt8, UInt8, UInt8), (UInt8, UInt8, UInt8))?
            for x in 0..<width {
                let top = pixel(x, row * 2), bottom = pixel(x, row * 2 + 1)
                if previous.map({ $0.0 != top || $0.1 != bottom }) ?? true {
                    text += "\u{1B}[38;2;\(top.0);\(top.1);\(top.2);48;2;\(bottom.0);\(bottom.1);\(bottom.2)m"
                    previous = (top, bottom)
                }
                text += "▀"
            }
            text += "\u{1B}[0m"
        }
        return text
    }

    /// Columns the last photo's thumbnail takes in the top right corner (its rows follow its aspect ratio).
    static let thumbnailColumns = 16

    /// The thumbnail as half-block cells at the top right, drawn over the picture (the picture does not move).
    static func corner(_ thumbnail: PhotoThumbnail, columns: Int) -> String {
        let width = min(thumbnailColumns, columns)
        let rows = max(1, Int((Double(width) * Double(thumbnail.height) / Double(thumbnail.width) / 2).rounded()))
        let left = max(1, columns - width + 1)
        var text = ""
        for row in 0..<rows {
            text += "\u{1B}[\(row + 1);\(left)H"
            for column in 0..<width {
                let x = (Double(column) + 0.5) / Double(width)
                let top = thumbnail.colour(x: x, y: (Double(row * 2) + 0.5) / Double(rows * 2))
                let bottom = thumbnail.colour(x: x, y: (Double(row * 2) + 1.5) / Double(rows * 2))
                text += "\u{1B}[38;2;\(top.0);\(top.1);\(top.2);48;2;\(bottom.0);\(bottom.1);\(bottom.2)m▀"
            }
            text += "\u{1B}[0m"
        }
        return text
    }

    private func write(_ text: String) {
        Standard.output.write(text)
    }
}
