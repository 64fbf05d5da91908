import Foundation
import Synchronization
import Testing
@testable import Cameras
@testable import Controls

/// The camera screen when its camera goes away and comes back (unplug through the virtual camera's fault files),
/// stalls, or when another camera is plugged in while it runs. /dev/video22 is these tests' own device.
@Suite(.serialized) struct ScreenRecoveryTests {
    /// The camera screen in an X window on /dev/video22 for at most 30 s.
    static let windowPreview = ["preview", "--device", "/dev/video22", "--width", "640", "--height", "480", "--sink", "ximagesink",
                                "--duration", "30"]
    static let devices = "/dev/video0=uvc,color=e61e1e;/dev/video22=uvc,color=1ec8e0"
    static let cyan = (0x1e, 0xc8, 0xe0)
    /// pipelines/waiting.pipeline's background.
    static let waitingGrey = (0x20, 0x24, 0x28)

    /// A fault file of the screen's private virtual camera state (docs/virtual-camera.md, "Fault injection").
    static func fault(_ screen: ScreenProcess, _ name: String, present: Bool, device: String = "video22") throws {
        let folder = screen.folder + "/vcam/" + device
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if present {
            _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: nil)
        } else {
            try FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }

    /// Whether the status line shows the camera at about 30 fps (measured: 29.x or 30.x).
    static func flowing(_ screen: String) -> Bool {
        screen.contains("640×480 · 30.") || screen.contains("640×480 · 29.")
    }

    /// How many foreground colours of half-block cells in a tmux capture (`-e`) are within 30 of `color`.
    static func cells(in screen: String, near color: (Int, Int, Int)) -> Int {
        var count = 0
        for part in screen.components(separatedBy: "38;2;").dropFirst() {
            let numbers = part.split(separator: ";", maxSplits: 3).prefix(3).map { Int($0.prefix { $0.isNumber }) ?? -999 }
            guard numbers.count == 3 else { continue }
            if abs(numbers[0] - color.0) <= 30, abs(numbers[1] - color.1) <= 30, abs(numbers[2] - color.2) <= 30 { count += 1 }
        }
        return count
    }

    @Test func theWindowSaysTheCameraIsGoneAndShowsItAgainWhenItIsBack() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let screen = try ScreenProcess(Self.windowPreview, devices: Self.devices)
        defer { screen.remove() }
        #expect(screen.wait { screen.output.contains("frames") }, "no figures: \(screen.errors)")
        try Self.fault(screen, "unplugged", present: true)
        #expect(screen.wait(5) { screen.errors.contains("Camera disconnected — waiting for it") }, "\(screen.errors)")
        var waiting = (width: 0, height: 0, rgb: [UInt8]())
        // The waiting window replaces the camera's: give it a moment to be drawn.
        #expect(screen.wait(5) {
            waiting = (try? screenshot(into: screen.folder, name: "waiting.png")) ?? waiting
            return countPixels(waiting, near: Self.waitingGrey, tolerance: 8, x: 0..<640, y: 100..<400) > 100_000
        }, "no waiting picture")
        // The message along the top: white text on its shaded box.
        #expect(countPixels(waiting, near: (255, 255, 255), tolerance: 30, x: 100..<540, y: 10..<60) > 300)
        #expect(countPixels(waiting, near: Self.cyan, tolerance: 30, x: 0..<640, y: 0..<80) < 100)
        // q and clicks meanwhile say that the camera is gone; the screen keeps waiting.
        try xdotool("mousemove", "320", "240", "click", "1")
        #expect(screen.wait(3) { screen.errors.contains("gstcam: Camera disconnected — waiting for it (/dev/video22)") })

        try Self.fault(screen, "unplugged", present: false)
        #expect(screen.wait(8) { screen.errors.contains("is back (/dev/video22)") }, "\(screen.errors)")
        var back = (width: 0, height: 0, rgb: [UInt8]())
        #expect(screen.wait(5) {
            back = (try? screenshot(into: screen.folder, name: "back.png")) ?? back
            return countPixels(back, near: Self.cyan, tolerance: 30, x: 0..<640, y: 0..<70) > 20_000
        }, "the camera's identity band is not back in the window")
        // Under Xvfb without a window manager, keys go to the window under the pointer once the pointer moves.
        try xdotool("mousemove", "330", "250", "mousemove", "320", "240", "key", "space")
        #expect(screen.wait(5) { screen.savedPhotos.count == 1 }, "no photo after the camera came back: \(screen.errors)")
        try xdotool("key", "q")
        #expect(screen.exitStatus(within: 5) == 0)
    }

    /// A video sink draws only when a frame comes: the screen draws the stall line over the last picture.
    @Test func theWindowShowsAStallOnItsStatusLine() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let screen = try ScreenProcess(Self.windowPreview, devices: Self.devices)
        defer { screen.remove() }
        #expect(screen.wait { screen.output.contains("frames") }, "no figures: \(screen.errors)")
        Thread.sleep(forTimeInterval: 1)
        let flowing = try screenshot(into: screen.folder, name: "flowing.png")
        try Self.fault(screen, "stall", present: true)
        #expect(screen.wait(5) { screen.errors.contains("No frames from /dev/video22 for 2 s") }, "\(screen.errors)")
        Thread.sleep(forTimeInterval: 1)
        let stalled = try screenshot(into: screen.folder, name: "stalled.png")
        // The long status line ("… · 640×480 · 30.0 fps · 1× · no torch · AF-C") has become the short "No frames
        // from /dev/video22 for N s": its box is gone from the right part of the line (the scene there is static).
        var changed = 0
        for y in 434..<456 { for x in 300..<480 where distance(pixel(flowing, x, y), pixel(stalled, x, y)) > 60 { changed += 1 } }
        #expect(changed > 800, "status line pixels changed by the stall: \(changed)")
        // Above the line the still picture is a frame of the camera's (the session's newest, copied when the frames
        // stopped): its scene is the one seen while frames flowed, above the rows where the camera's white square
        // moves a step each frame (docs/virtual-camera.md)...
        var kept = 0
        for y in 100..<220 { for x in 50..<590 where distance(pixel(flowing, x, y), pixel(stalled, x, y)) <= 30 { kept += 1 } }
        #expect(kept > 120 * 540 * 95 / 100, "pixels of the picture kept over the stall: \(kept) of \(120 * 540)")
        // ...and the square is there, whole: a picture, not a blank.
        let square = countPixels(stalled, near: (255, 255, 255), tolerance: 30, x: 0..<640, y: 230..<310)
        #expect((80 * 80)...(80 * 110) ~= square, "white pixels of the camera's square in the still picture: \(square)")
        try Self.fault(screen, "stall", present: false)
        #expect(screen.wait(5) { screen.errors.contains("Frames from /dev/video22 again") }, "\(screen.errors)")
        try xdotool("mousemove", "330", "250", "mousemove", "320", "240", "key", "q")
        #expect(screen.exitStatus(within: 5) == 0)
    }

    @Test func cWhileWaitingShowsAnotherCamera() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let screen = try ScreenProcess(Self.windowPreview, devices: Self.devices)
        defer { screen.remove() }
        #expect(screen.wait { screen.output.contains("frames") }, "no figures: \(screen.errors)")
        try Self.fault(screen, "unplugged", present: true)
        #expect(screen.wait(5) { screen.errors.contains("Camera disconnected — waiting for it") }, "\(screen.errors)")
        Thread.sleep(forTimeInterval: 1)
        try xdotool("mousemove", "330", "250", "mousemove", "320", "240", "key", "c")
        #expect(screen.wait(8) { screen.errors.contains("gstcam: Camera: Virtual UVC Camera (video0) (/dev/video0); Virtual UVC Camera (video22) is still gone") },
                "\(screen.errors)")
        let red = (0xe6, 0x1e, 0x1e)
        var window = (width: 0, height: 0, rgb: [UInt8]())
        #expect(screen.wait(5) {
            window = (try? screenshot(into: screen.folder)) ?? window
            return countPixels(window, near: red, tolerance: 30, x: 0..<640, y: 0..<70) > 20_000
        }, "the other camera is not shown: \(screen.errors)")
        // The camera it left coming back changes nothing: it is announced, the screen stays on video0.
        try Self.fault(screen, "unplugged", present: false)
        #expect(screen.wait(5) { screen.errors.contains("gstcam: Camera plugged in: Virtual UVC Camera (video22)") }, "\(screen.errors)")
        #expect(!screen.errors.contains("preview resumed"))
        try xdotool("mousemove", "330", "250", "mousemove", "320", "240", "key", "q")
        #expect(screen.exitStatus(within: 5) == 0)
    }

    @Test func theTerminalViewSaysTheCameraIsGoneAndDrawsItAgainWhenItIsBack() throws {
        let terminal = try RecoveryTerminal(["--device", "/dev/video22", "--width", "640", "--height", "480", "--sink", "terminal"])
        defer { terminal.remove() }
        #expect(try terminal.wait { try terminal.screen().contains("Virtual UVC Camera (video22) · 640×480") }, "\((try? terminal.screen()) ?? "")")
        try terminal.fault("unplugged", present: true)
        #expect(try terminal.wait(5) { try terminal.screen().contains("Camera disconnected — waiting for it") }, "\((try? terminal.screen()) ?? "")")
        #expect(try terminal.screen().contains("(/dev/video22) · disconnected"))
        #expect(try !terminal.screen().contains("▀"))
        try terminal.fault("unplugged", present: false)
        #expect(try terminal.wait(8) { try terminal.screen().contains("▀▀▀▀▀▀▀▀▀▀") && !terminal.screen().contains("waiting for it") },
                "\((try? terminal.screen()) ?? "")")
        #expect(try terminal.wait(3) { try Self.flowing(terminal.screen()) }, "\((try? terminal.screen()) ?? "")")
        // The identity colour of /dev/video22 in 24-bit colour escapes (one per row of the band): the camera itself.
        #expect(try Self.cells(in: terminal.screen(colours: true), near: Self.cyan) >= 5, "no cyan half blocks")
        _ = try terminal.tmux("send-keys", "-t", "0", "q")
        #expect(terminal.wait(5) { terminal.file("status.txt") != nil })
        #expect(terminal.file("status.txt") == "0\n")
    }

    /// The terminal going away (its window closed: the pty hangs up) ends the screen, as a closed window does.
    @Test func aTerminalThatGoesAwayEndsTheScreen() throws {
        let terminal = try RecoveryTerminal(["--device", "/dev/video22", "--width", "640", "--height", "480", "--sink", "terminal"])
        defer { terminal.remove() }
        #expect(try terminal.wait { try Self.flowing(terminal.screen()) }, "\((try? terminal.screen()) ?? "")")
        let pid = try #require(Int32(try terminal.tmux("display-message", "-p", "#{pane_pid}").trimmingCharacters(in: .whitespacesAndNewlines)))
        let preview = try runProcess("/usr/bin/pgrep", ["-P", String(pid), "gstcam"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let previewPID = try #require(Int32(preview), "no gstcam under the pane's shell")
        terminal.remove()
        #expect(terminal.wait(5) { kill(previewPID, 0) != 0 }, "gstcam \(previewPID) still runs after its terminal went away")
    }

    @Test func aStalledCameraIsReportedAndTheReportClearsWhenFramesComeBack() throws {
        let terminal = try RecoveryTerminal(["--device", "/dev/video22", "--width", "640", "--height", "480", "--sink", "terminal"])
        defer { terminal.remove() }
        #expect(try terminal.wait { try Self.flowing(terminal.screen()) }, "\((try? terminal.screen()) ?? "")")
        try terminal.fault("stall", present: true)
        #expect(try terminal.wait(8) { try terminal.screen().contains("No frames from /dev/video22 for ") }, "\((try? terminal.screen()) ?? "")")
        try terminal.fault("stall", present: false)
        #expect(try terminal.wait(5) { try Self.flowing(terminal.screen()) && !terminal.screen().contains("No frames") },
                "\((try? terminal.screen()) ?? "")")
        _ = try terminal.tmux("send-keys", "-t", "0", "q")
        #expect(terminal.wait(5) { terminal.file("status.txt") != nil })
        let errors = terminal.file("stderr.txt") ?? ""
        #expect(errors.contains("gstcam: No frames from /dev/video22 for 2 s\ngstcam: Frames from /dev/video22 again\n"), "\(errors)")
    }

    @Test func figuresResumeAfterAReplugAndACameraStillGoneAtTheEndIsAFailure() throws {
        let screen = try ScreenProcess(["preview", "--device", "/dev/video22", "--width", "640", "--height", "480", "--sink", "none", "--json", "--duration", "30"],
                                       devices: Self.devices)
        defer { screen.remove() }
        #expect(screen.wait { screen.output.contains(#""frames":"#) }, "no figures: \(screen.errors)")
        try Self.fault(screen, "unplugged", present: true)
        #expect(screen.wait(5) { screen.output.contains(#"{"event":"waiting","message":"Camera disconnected — waiting for it: "#) },
                "\(screen.output)")
        let figuresWhileGone = screen.output.split(separator: "\n").count
        Thread.sleep(forTimeInterval: 1.5)
        #expect(screen.output.split(separator: "\n").count <= figuresWhileGone + 1, "figures printed while the camera is gone")
        try Self.fault(screen, "unplugged", present: false)
        #expect(screen.wait(8) { screen.output.contains(#"{"event":"resumed""#) }, "\(screen.output)\n\(screen.errors)")
        let resumed = screen.output.count
        #expect(screen.wait(4) { screen.output.dropFirst(resumed).contains(#""fps":30"#) || screen.output.dropFirst(resumed).contains(#""fps":29"#) },
                "\(screen.output)")
        kill(screen.process.processIdentifier, SIGINT)
        #expect(screen.exitStatus(within: 5) == 130)

        // Gone for good: --duration ends the wait, exit status 1 with what happened.
        let gone = try ScreenProcess(["preview", "--device", "/dev/video22", "--width", "640", "--height", "480", "--sink", "none", "--duration", "4"], devices: Self.devices)
        defer { gone.remove() }
        #expect(gone.wait { gone.output.contains("frames") }, "no figures: \(gone.errors)")
        try Self.fault(gone, "unplugged", present: true)
        #expect(gone.exitStatus(within: 8) == 1)
        #expect(gone.errors.contains("gstcam: Camera disconnected — waiting for it: Virtual UVC Camera (video22) (/dev/video22)"), "\(gone.errors)")
    }

    @Test func aCameraStalledPastTheStallTimeoutIsWaitedForAndResumes() throws {
        let screen = try ScreenProcess(["preview", "--device", "/dev/video22", "--width", "640", "--height", "480", "--sink", "none", "--json", "--stall-timeout", "2",
                                        "--duration", "30"], devices: Self.devices)
        defer { screen.remove() }
        #expect(screen.wait(8) { screen.output.contains(#""frames":"#) }, "no figures: \(screen.errors)")
        try Self.fault(screen, "stall", present: true)
        #expect(screen.wait(6) {
            screen.output.contains(#"{"event":"waiting","message":"No frames from the camera — waiting for it: /dev/video22 stopped sending frames for 2 s."#)
        }, "\(screen.output)\n\(screen.errors)")
        #expect(!screen.output.contains(#"{"event":"resumed""#))
        try Self.fault(screen, "stall", present: false)
        #expect(screen.wait(8) { screen.output.contains(#"{"event":"resumed""#) }, "\(screen.output)\n\(screen.errors)")
        kill(screen.process.processIdentifier, SIGINT)
        #expect(screen.exitStatus(within: 5) == 130)
    }

    /// vivid's disconnect (the virtual camera's vivid profile does what the kernel driver does): the node stays,
    /// every fd fails with ENODEV, and the driver reconnects once the last fd is closed, so the screen's own
    /// closing of the failed session is what brings the camera back.
    /// With a screen (terminal), whose status line reads the camera's controls: that handle must go too.
    @Test(arguments: ["none", "terminal"])
    func aDriverDisconnectIsWaitedOutWithoutAnyoneReplugging(sink: String) throws {
        let devices = "/dev/video22=vivid,color=1ec8e0"
        if sink == "terminal" {
            let terminal = try RecoveryTerminal(["--device", "/dev/video22", "--width", "640", "--height", "480", "--fps", "25", "--sink", "terminal"], devices: devices)
            defer { terminal.remove() }
            #expect(try terminal.wait(8) { try terminal.screen().contains("640×480 · 2") }, "\((try? terminal.screen()) ?? "")")
            let disconnect = try runProcess("/usr/bin/v4l2-ctl", ["-d", "/dev/video22", "-c", "disconnect=1"],
                                            environment: terminal.environment)
            #expect(disconnect.status == 0, "\(disconnect.error)")
            #expect(terminal.wait(8) { terminal.file("stderr.txt")?.contains("preview resumed") == true }, "\(terminal.file("stderr.txt") ?? "")")
            #expect(try terminal.wait(5) { try terminal.screen().contains("640×480 · 2") }, "\((try? terminal.screen()) ?? "")")
            return
        }
        let screen = try ScreenProcess(["preview", "--device", "/dev/video22", "--width", "640", "--height", "480", "--fps", "25", "--sink", "none", "--json",
                                        "--duration", "30"], devices: devices)
        defer { screen.remove() }
        #expect(screen.wait(8) { screen.output.contains(#""frames":"#) }, "no figures: \(screen.errors)")
        let disconnect = try runProcess("/usr/bin/v4l2-ctl", ["-d", "/dev/video22", "-c", "disconnect=1"],
                                        environment: screen.environment(devices: devices))
        #expect(disconnect.status == 0, "\(disconnect.error)")
        #expect(screen.wait(8) { screen.output.contains(#"{"event":"resumed""#) }, "\(screen.output)\n\(screen.errors)")
        #expect(screen.output.contains(#"{"event":"waiting","message":"Camera disconnected — waiting for it: /dev/video22 was disconnected."#),
                "\(screen.output)")
        let resumed = screen.output.count
        #expect(screen.wait(4) { screen.output.dropFirst(resumed).contains(#""fps":2"#) }, "\(screen.output)")
        kill(screen.process.processIdentifier, SIGTERM)
        #expect(screen.exitStatus(within: 5) == 130)
    }

    @Test func aCameraPluggedInWhileTheScreenRunsIsAnnouncedAndReachedWithC() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let screen = try ScreenProcess(["preview", "--device", "/dev/video0", "--width", "640", "--height", "480", "--sink", "ximagesink", "--duration", "30"],
                                       devices: Self.devices, beforeStart: { folder in
            try FileManager.default.createDirectory(atPath: folder + "/vcam/video22", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: folder + "/vcam/video22/unplugged", contents: nil)
        })
        defer { screen.remove() }
        #expect(screen.wait { screen.output.contains("frames") }, "no figures: \(screen.errors)")
        // Only one camera: c has nowhere to go.
        try xdotool("mousemove", "330", "250", "mousemove", "320", "240", "key", "c")
        #expect(screen.wait(3) { screen.errors.contains("gstcam: No other camera to switch to: /dev/video0 is the only one that can be used") }, "\(screen.errors)")
        try Self.fault(screen, "unplugged", present: false)
        #expect(screen.wait(5) { screen.errors.contains("gstcam: Camera plugged in: Virtual UVC Camera (video22) (/dev/video22) — c switches to it") },
                "\(screen.errors)")
        try xdotool("key", "c")
        var window = (width: 0, height: 0, rgb: [UInt8]())
        #expect(screen.wait(5) {
            window = (try? screenshot(into: screen.folder)) ?? window
            return countPixels(window, near: Self.cyan, tolerance: 30, x: 0..<640, y: 0..<70) > 20_000
        }, "the new camera is not shown: \(screen.errors)")
        // Unplugging the camera it does not show is announced; the screen goes on.
        try Self.fault(screen, "unplugged", present: true, device: "video0")
        #expect(screen.wait(5) { screen.errors.contains("gstcam: Camera unplugged: Virtual UVC Camera (video0) (/dev/video0)") }, "\(screen.errors)")
        try xdotool("key", "q")
        #expect(screen.exitStatus(within: 5) == 0)
    }

    @Test func theMonitorReportsCamerasUnpluggedAndPluggedIn() async throws {
        let state = try #require(ProcessInfo.processInfo.environment["VCAM_STATE_DIR"], "run the tests with scripts/test")
        let unplugged = state + "/video22/unplugged"
        try FileManager.default.createDirectory(atPath: state + "/video22", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: unplugged) }
        let monitor = CameraMonitor(interval: .milliseconds(100))
        defer { monitor.stop() }
        let camera = try #require(monitor.cameras.first { $0.path == "/dev/video22" })
        let seen = ChangeLog()
        let stream = monitor.changes()
        let reader = Task {
            for await change in stream { seen.changes.withLock { $0.append(change) } }
            seen.changes.withLock { $0.append(.removed(camera)) }  // a mark for "the stream ended"
        }
        defer { reader.cancel() }
        func waitFor(_ count: Int) async -> [CameraChange] {
            for _ in 0..<50 where seen.changes.withLock({ $0.count }) < count { try? await Task.sleep(for: .milliseconds(100)) }
            return seen.changes.withLock { $0 }
        }
        _ = FileManager.default.createFile(atPath: unplugged, contents: nil)
        #expect(await waitFor(1) == [.removed(camera)])
        #expect(!monitor.cameras.contains { $0.path == "/dev/video22" })
        try FileManager.default.removeItem(atPath: unplugged)
        let changes = await waitFor(2)
        guard changes.count == 2, case let .added(again) = changes[1] else { Issue.record("not added again: \(changes)"); return }
        #expect(again.isSameCamera(as: camera) && again.name == camera.name)
        #expect(monitor.cameras.contains { $0.path == "/dev/video22" })
        // Nothing changes: nothing is reported.
        try? await Task.sleep(for: .milliseconds(400))
        #expect(seen.changes.withLock { $0.count } == 2)
        monitor.stop()
        #expect(await waitFor(3).count == 3, "the change stream did not end with stop()")
    }

    @Test func monitorChangesCompareCamerasByNodeAndIgnoreTheirPositions() {
        func camera(_ path: String, _ name: String, index: Int) -> Camera {
            Camera(index: index, path: path, name: name, driver: "uvcvideo", busInfo: "usb-1", stableID: nil, stablePath: nil,
                   nodes: [], isInfrared: false, formats: [], features: ControlSummary(), problem: nil)
        }
        let front = camera("/dev/video0", "Front", index: 0), back = camera("/dev/video2", "Back", index: 1)
        let backFirst = camera("/dev/video2", "Back", index: 0)
        #expect(CameraMonitor.changes(from: [front, back], to: [backFirst]) == [.removed(front)])
        #expect(CameraMonitor.changes(from: [backFirst], to: [front, back]) == [.added(front)])
        let other = camera("/dev/video2", "Other", index: 1)
        #expect(CameraMonitor.changes(from: [front, back], to: [front, other]) == [.removed(back), .added(other)])
        #expect(CameraMonitor.changes(from: [front], to: [front]).isEmpty)
    }
}

final class ChangeLog: Sendable {
    let changes = Mutex<[CameraChange]>([])
}

/// `gstcam preview` in a tmux session of its own with a private virtual camera state, for the recovery tests.
final class RecoveryTerminal: TmuxSession {
    /// `display`: the DISPLAY the preview gets (none by default).
    init(_ arguments: [String], display: String? = nil, devices: String = ScreenRecoveryTests.devices) throws {
        let folder = try makeTemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/vcam", withIntermediateDirectories: true)
        // --duration: a preview left behind by a failed test ends by itself.
        let command = "\(gstcamBinary) preview \(arguments.joined(separator: " ")) --duration 40 2>\(folder)/stderr.txt; "
            + "echo $? > \(folder)/status.part; mv \(folder)/status.part \(folder)/status.txt; sleep 30"
        super.init(folder: folder, serverPrefix: "gstcam-recovery", command: command,
                   variables: ["GSTCAM_PHOTO_DIR": folder, "XDG_RUNTIME_DIR": folder, "VCAM_STATE_DIR": folder + "/vcam",
                               "VCAM_DEVICES": devices],
                   display: display)
    }

    func fault(_ name: String, present: Bool) throws {
        let path = folder + "/vcam/video22/" + name
        try FileManager.default.createDirectory(atPath: folder + "/vcam/video22", withIntermediateDirectories: true)
        if present { _ = FileManager.default.createFile(atPath: path, contents: nil) } else { try FileManager.default.removeItem(atPath: path) }
    }
}

private func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
    abs(a.0 - b.0) + abs(a.1 - b.1) + abs(a.2 - b.2)
}
