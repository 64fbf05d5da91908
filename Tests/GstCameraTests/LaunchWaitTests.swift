import Foundation
import Testing

/// A camera the screen may not open at launch — refused for permission (the virtual camera's `deny` fault: open
/// fails with EACCES) or held by another program — opens the window (or the terminal view) with the error view,
/// the message and the fix, and the preview comes up by itself once the camera may be opened. Every wait is
/// bounded and the processes are killed when a test ends (--duration ends a screen left behind).
@Suite(.serialized) struct LaunchWaitTests {
    static let devices = "/dev/video0=uvc,color=1ec8e0"
    static let window = ["preview", "--device", "/dev/video0", "--width", "640", "--height", "480", "--sink", "ximagesink", "--duration", "40"]

    /// The error view's yellow warning sign above the message (ErrorView at 640×480).
    static func warningSign(_ image: (width: Int, height: Int, rgb: [UInt8])) -> Int {
        countPixels(image, near: (0xFF, 0xD6, 0x0A), tolerance: 20, x: 280..<360, y: 60..<140)
    }

    /// The error view's white text (title, what happened, the fix, how it comes back).
    static func errorText(_ image: (width: Int, height: Int, rgb: [UInt8])) -> Int {
        countPixels(image, near: (255, 255, 255), tolerance: 40, x: 0..<640, y: 150..<340)
    }

    /// The camera's cyan band along the top of the picture.
    static func preview(_ image: (width: Int, height: Int, rgb: [UInt8])) -> Int {
        countPixels(image, near: (0x1e, 0xc8, 0xe0), tolerance: 30, x: 0..<640, y: 0..<70)
    }

    @Test func aCameraRefusedForPermissionShowsTheErrorViewThenThePreviewOnceAllowed() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let screen = try ScreenProcess(Self.window, devices: Self.devices) { folder in
            try FileManager.default.createDirectory(atPath: folder + "/vcam/video0", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: folder + "/vcam/video0/deny", contents: nil)
        }
        defer { screen.remove() }
        #expect(screen.wait(10) { screen.errors.contains("No permission to use the camera — waiting for it") }, "\(screen.errors)")
        #expect(screen.errors.contains("Permission denied opening /dev/video0. Add your user to the `video` group"), "\(screen.errors)")
        var shown = (width: 0, height: 0, rgb: [UInt8]())
        #expect(screen.wait(5) {
            shown = (try? screenshot(into: screen.folder, name: "denied.png")) ?? shown
            return Self.warningSign(shown) > 800
        }, "no error view in the window: \(screen.errors)")
        #expect(Self.errorText(shown) > 1500, "no error text in the window: \(Self.errorText(shown)) white pixels")
        #expect(screen.process.isRunning, "the screen exited on a camera refused for permission")

        // Allowed now: the preview comes up in the window without a restart.
        try FileManager.default.removeItem(atPath: screen.folder + "/vcam/video0/deny")
        #expect(screen.wait(10) { screen.errors.contains("is back (/dev/video0)") }, "\(screen.errors)")
        var back = shown
        #expect(screen.wait(5) {
            back = (try? screenshot(into: screen.folder, name: "allowed.png")) ?? back
            return Self.preview(back) > 20_000
        }, "no preview once allowed: \(Self.preview(back)) cyan pixels")
        #expect(!screen.errors.contains("Camera unplugged"), "the camera, once readable, was taken for another one: \(screen.errors)")
        try xdotool("mousemove", "320", "240", "key", "q")
        #expect(screen.exitStatus(within: 5) == 0, "\(screen.errors)")
    }

    @Test func aCameraRefusedForPermissionShowsTheMessageAndTheFixInTheTerminal() throws {
        let folder = try makeTemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/vcam/video0", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder + "/vcam/video0/deny", contents: nil)
        let command = "\(gstcamBinary) preview --device /dev/video0 --width 640 --height 480 --sink terminal --duration 40 "
            + "2>\(folder)/stderr.txt; echo $? > \(folder)/status.part; mv \(folder)/status.part \(folder)/status.txt; sleep 30"
        let terminal = TmuxSession(folder: folder, serverPrefix: "gstcam-launch", command: command,
                                   variables: ["GSTCAM_PHOTO_DIR": folder, "XDG_RUNTIME_DIR": folder, "VCAM_STATE_DIR": folder + "/vcam",
                                               "VCAM_DEVICES": Self.devices])
        defer { terminal.remove() }
        #expect(try terminal.wait(10) { try terminal.screen().contains("No permission to use the camera — waiting for it") },
                "\((try? terminal.screen()) ?? "")\n\(terminal.file("stderr.txt") ?? "")")
        let waiting = try terminal.screen()
        // The fix, wrapped across lines as the window wraps it.
        let words = waiting.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("Permission denied opening /dev/video0. Add your user to the `video` group (sudo usermod -aG video $USER)"),
                "\(waiting)")
        #expect(waiting.contains("Camera (/dev/video0) · no permission"), "\(waiting)")
        try FileManager.default.removeItem(atPath: folder + "/vcam/video0/deny")
        #expect(try terminal.wait(10) { ScreenRecoveryTests.flowing(try terminal.screen()) }, "\((try? terminal.screen()) ?? "")")
        #expect(try !terminal.screen().contains("Permission denied"))
        _ = try terminal.tmux("send-keys", "-t", "0", "q")
        #expect(terminal.wait(5) { terminal.file("status.txt") != nil })
        #expect(terminal.file("status.txt")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test func aCameraHeldAtLaunchKeepsOneErrorViewWindowNamingTheHolderUntilItLetsGo() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let folder = try makeTemporaryFolder()
        let environment = try privateVirtualCameras(Self.devices, in: folder)
        try FileManager.default.createDirectory(atPath: folder + "/holder", withIntermediateDirectories: true)
        // The holder: a burst streaming the camera, a photo a second into its own folder.
        let holder = try BackgroundGstcam(["capture", "--device", "/dev/video0", "--count", "0", "--interval", "1", "--dir", folder],
                                          environment: environment, folder: folder + "/holder")
        defer {
            killAndWait(holder.process)
            try? FileManager.default.removeItem(atPath: folder)
        }
        #expect(holder.wait(10) { holder.output.contains("Saved") }, "the holder does not stream: \(holder.errors)")
        let screen = try ScreenProcess(Self.window, devices: Self.devices) { screenFolder in
            // The screen sees the holder's virtual camera state.
            try FileManager.default.removeItem(atPath: screenFolder + "/vcam")
            try FileManager.default.createSymbolicLink(atPath: screenFolder + "/vcam", withDestinationPath: folder + "/vcam")
        }
        defer { screen.remove() }
        let pid = holder.process.processIdentifier
        #expect(screen.wait(10) { screen.errors.contains("The camera is in use by another program — waiting for it") }, "\(screen.errors)")
        #expect(screen.errors.contains("/dev/video0 is in use by PID \(pid) (gstcam)"), "the holder is not named: \(screen.errors)")
        let window = try #require(try firstWindow(timeout: 5), "no window while the camera is held")
        // The window is marked by its title (X reuses window ids, so the id alone would not tell a new window);
        // two tries of the camera later (one every 2 s) the marked window still shows: it is not rebuilt at each try.
        func tries() -> Int { screen.errors.components(separatedBy: "does not stream yet").count - 1 }
        let before = tries()
        try xdotool("set_window", "--name", "gstcam-waiting-marker", String(window))
        #expect(screen.wait(10) { tries() >= before + 2 }, "the camera is not tried again: \(screen.errors)")
        let marked = try runProcess("/usr/bin/xdotool", ["search", "--name", "^gstcam-waiting-marker$"]).output
        #expect(marked.split(separator: "\n").count == 1, "the waiting window was rebuilt while the camera was tried")
        var held = (width: 0, height: 0, rgb: [UInt8]())
        #expect(screen.wait(5) {
            held = (try? screenshot(into: screen.folder, name: "held.png")) ?? held
            return Self.warningSign(held) > 800 && Self.errorText(held) > 1500
        }, "no error view in the window: \(Self.warningSign(held)) sign, \(Self.errorText(held)) text pixels")

        // The holder exits: the preview comes up.
        kill(pid, SIGINT)
        #expect(holder.exitStatus(within: 5) != nil, "the holder did not exit")
        #expect(screen.wait(10) { screen.errors.contains("is back (/dev/video0)") }, "\(screen.errors)")
        var back = held
        #expect(screen.wait(5) {
            back = (try? screenshot(into: screen.folder, name: "back.png")) ?? back
            return Self.preview(back) > 20_000
        }, "no preview once the holder let go: \(Self.preview(back)) cyan pixels")
        try xdotool("mousemove", "320", "240", "key", "q")
        #expect(screen.exitStatus(within: 5) == 0, "\(screen.errors)")
    }

    @Test func qWhileWaitingForARefusedCameraQuits() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let screen = try ScreenProcess(Self.window, devices: Self.devices) { folder in
            try FileManager.default.createDirectory(atPath: folder + "/vcam/video0", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: folder + "/vcam/video0/deny", contents: nil)
        }
        defer { screen.remove() }
        #expect(screen.wait(10) { screen.errors.contains("No permission to use the camera — waiting for it") }, "\(screen.errors)")
        #expect(try firstWindow(timeout: 5) != nil, "no window")
        try xdotool("mousemove", "320", "240", "key", "q")
        #expect(screen.exitStatus(within: 5) == 0, "q did not quit the waiting screen: \(screen.errors)")
    }
}
