import Foundation
import Testing
@testable import Screen

/// `gstcam preview` with a display that is set but does not answer: never a crash (autovideosink walking into a
/// framebuffer sink) or a bare "refused the state change"; the terminal view on a terminal, else a clear error.
@Suite(.serialized) struct ScreenDisplayTests {
    /// A DISPLAY nothing listens on (the issue's :99 when free; scripts/test's Xvfb may be :99 itself).
    static let deadDisplay: String = {
        let number = (99..<300).first { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") } ?? 299
        return ":\(number)"
    }()

    static func environment(display: String?) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment["WAYLAND_DISPLAY"] = nil
        environment["VCAM_DEVICES"] = "/dev/video0=uvc"
        environment["VCAM_STATE_DIR"] = NSTemporaryDirectory() + "vcam-display-" + UUID().uuidString
        return environment
    }

    @Test func aDeadDisplayWithoutATerminalIsAClearError() throws {
        let environment = Self.environment(display: Self.deadDisplay)
        defer { try? FileManager.default.removeItem(atPath: environment["VCAM_STATE_DIR"]!) }
        let number = Self.deadDisplay.dropFirst()
        let result = try gstcam(["preview", "--duration", "2"], environment: environment)
        #expect(result.status == 1, "\(result.output) \(result.error)")
        #expect(result.error == "gstcam: no window can be opened: DISPLAY=\(Self.deadDisplay) does not answer (nothing listens on "
                + "/tmp/.X11-unix/X\(number)). Start the display server or point DISPLAY (or WAYLAND_DISPLAY) at one that runs; "
                + "or show the camera in a terminal (--sink terminal) or not at all (--sink none).\n")
        let explicit = try gstcam(["preview", "--sink", "ximagesink", "--duration", "2"], environment: environment)
        #expect(explicit.status == 1)
        #expect(explicit.error.hasPrefix("gstcam: --sink ximagesink cannot open a window: DISPLAY=\(Self.deadDisplay) does not answer"), "\(explicit.error)")
        let auto = try gstcam(["preview", "--sink", "autovideosink", "--duration", "2"], environment: environment)
        #expect(auto.status == 1, "autovideosink on a dead display: \(auto.status) \(auto.error)")
        let unset = try gstcam(["preview", "--sink", "ximagesink", "--duration", "2"], environment: Self.environment(display: nil))
        #expect(unset.status == 1)
        #expect(unset.error.hasPrefix("gstcam: --sink ximagesink cannot open a window: DISPLAY is not set."), "\(unset.error)")
        // Sinks that need no display are not checked; a broken DISPLAY does not stop the figures.
        let figures = try gstcam(["preview", "--sink", "none", "--duration", "1"], environment: environment)
        #expect(figures.status == 0, "\(figures.error)")
        // A picker needs somewhere to show the camera.
        let picker = try gstcam(["capture", "--preview"], environment: environment)
        #expect(picker.status == 1 && picker.error.contains("DISPLAY=\(Self.deadDisplay) does not answer"), "\(picker.error)")
    }

    @Test func aDeadDisplayOnATerminalGivesTheTerminalView() throws {
        let terminal = try RecoveryTerminal(["--device", "/dev/video0", "--width", "640", "--height", "480"], display: Self.deadDisplay)
        defer { terminal.remove() }
        #expect(try terminal.wait(8) { try terminal.screen().contains("Virtual UVC Camera (video0) · 640×480") }, "\((try? terminal.screen()) ?? "")")
        _ = try terminal.tmux("send-keys", "-t", "0", "q")
        #expect(terminal.wait(5) { terminal.file("status.txt") != nil })
        #expect(terminal.file("status.txt") == "0\n")
        #expect(terminal.file("stderr.txt")?.contains("gstcam: DISPLAY=\(Self.deadDisplay) does not answer (nothing listens on /tmp/.X11-unix/X\(Self.deadDisplay.dropFirst())); showing the camera in this terminal instead of a window.") == true,
                "\(terminal.file("stderr.txt") ?? "")")
    }

    @Test func theDisplayCheckTellsAnsweringFromSilentDisplays() throws {
        let live = try #require(ProcessInfo.processInfo.environment["DISPLAY"], "no X display: run the tests with scripts/test")
        #expect(DisplayCheck.check(["DISPLAY": live]) == .answers(.x11(display: live)))
        // Xvfb has no XVideo: the explicit list goes on to ximagesink.
        #expect(WindowSink.choose(for: .x11(display: live)) == .success("ximagesink"))
        // Why a sink could not be used is kept, in the sink's words.
        guard case let .failure(failure) = WindowSink.firstWorking(["xvimagesink", "nosuchsink"]) else {
            Issue.record("xvimagesink opened a window on Xvfb")
            return
        }
        #expect(failure.reasons == ["xvimagesink: Could not initialise Xv output", "nosuchsink: not installed"])
        #expect(DisplayCheck.check([:]) == .noDisplay)
        #expect(DisplayCheck.check(["DISPLAY": "nonsense"]).problem == "DISPLAY=nonsense does not answer (it is not of the form :N or host:N)")
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A Wayland socket that is not there; DISPLAY still answers, so X11 is used.
        let wayland = ["WAYLAND_DISPLAY": "wayland-9", "XDG_RUNTIME_DIR": folder]
        #expect(DisplayCheck.check(wayland).problem == "WAYLAND_DISPLAY=wayland-9 does not answer (nothing listens on \(folder)/wayland-9)")
        #expect(DisplayCheck.check(wayland.merging(["DISPLAY": live]) { $1 }) == .answers(.x11(display: live)))
        // A TCP display on a port nothing listens on.
        #expect(DisplayCheck.check(["DISPLAY": "127.0.0.1:\(Self.deadDisplay.dropFirst())"]).problem?.contains("Connection refused") == true)
    }
}
