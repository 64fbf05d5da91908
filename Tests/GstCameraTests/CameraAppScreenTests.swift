import Foundation
import Testing
import GstCamera

/// Issue 15 on the camera screen itself: the terminal view's saved-photo line, the flash key, the picker's flash.
/// /dev/video2 is the sensor camera with a flash (scripts/test): a strobe makes the next 2 frames +90 luma, so a
/// flashed photo of its default scene (mean luma ~126) reads above 160.
@Suite(.serialized) struct CameraAppScreenTests {
    @Test func theTerminalKeepsItsStatusLineWhenAPhotoIsSavedAndLCyclesTheFlash() throws {
        let terminal = try TerminalScreenTests.TerminalSession(["--device", "/dev/video2", "--width", "640", "--height", "480",
                                                                "--sink", "terminal"])
        defer { terminal.remove() }
        #expect(try terminal.wait(8) { try terminal.screen().contains("flash off") }, "\((try? terminal.screen()) ?? "")")
        _ = try terminal.tmux("send-keys", "-t", "0", "l")
        #expect(try terminal.wait(3) { try terminal.screen().contains("Flash: On") }, "\((try? terminal.screen()) ?? "")")
        _ = try terminal.tmux("send-keys", "-t", "0", "Space")
        var sawPath = false
        let saved = terminal.wait(4) {
            let screen = (try? terminal.screen()) ?? ""
            sawPath = sawPath || screen.contains("Saved /")
            return screen.contains("Saved IMG_")
        }
        #expect(saved)
        // The line stays the bottom row; the picture is not pushed up, and no full path is written over it.
        for _ in 0..<10 {
            let rows = try terminal.screen().split(separator: "\n", omittingEmptySubsequences: false)
            sawPath = sawPath || rows.contains { $0.contains("Saved /") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(!sawPath, "the photo's path was printed over the terminal view")
        let rows = try terminal.screen().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.first?.contains("▀") == true, "\(rows.first ?? "")")
        let statusRow = rows.last { !$0.isEmpty } ?? ""
        #expect(statusRow.hasPrefix("Saved IMG_") && statusRow.contains("(flash)  ·  Virtual Sensor Camera (video2) · 640×480"),
                "\(rows.suffix(2))")
        let photo = try #require(((try? FileManager.default.contentsOfDirectory(atPath: terminal.folder)) ?? []).first { $0.hasPrefix("IMG_") })
        #expect(try CameraAppFixTests.meanLuma(terminal.folder + "/" + photo) > 160, "the flash fired")
        _ = try terminal.tmux("send-keys", "-t", "0", "q")
        #expect(terminal.wait(3) { terminal.file("status.txt") != nil })
        // Once the terminal is given back, the path is printed.
        #expect(try terminal.screen().contains("Saved \(terminal.folder)/\(photo) (640x480)"), "\((try? terminal.screen()) ?? "")")
    }

    @Test func thePickerFiresTheFlash() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let picker = try ScreenProcess(["capture", "--preview", "--flash", "--device", "/dev/video2", "--width", "640", "--height", "480"])
        defer { picker.remove() }
        _ = try #require(try firstWindow(), "no window: \(picker.errors)")
        #expect(picker.wait(8) { picker.errors.contains("Mode:") })
        Thread.sleep(forTimeInterval: 1)
        try xdotool("mousemove", "320", "240", "key", "space")
        #expect(picker.exitStatus(within: 5) == 0, "\(picker.errors)")
        let photo = try #require(picker.savedPhotos.first)
        #expect(try CameraAppFixTests.meanLuma(photo) > 160, "the flash fired")
    }

    /// 1920×1080 on the 1280×1024 Xvfb: the window opens at 1152×648 (90% of the screen, the frame's shape); made
    /// 576×324, it shows the whole picture scaled (the red identity band, the top sixth, across the top; all 8
    /// checkerboard columns) rather than a part of it.
    @Test func theWindowFitsTheScreenAndScalesWithItsSize() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let preview = try ScreenProcess(["preview", "--device", "/dev/video0", "--width", "max", "--sink", "ximagesink", "--duration", "20"])
        defer { preview.remove() }
        #expect(preview.wait(8) { preview.output.contains("frames") }, "\(preview.errors)")
        let tree = try runProcess("/usr/bin/xwininfo", ["-root", "-children"]).output
        let line = try #require(tree.split(separator: "\n").first { $0.contains("1152x648+") }, "no 1152x648 window: \(tree)")
        let window = try #require(line.trimmingCharacters(in: .whitespaces).split(separator: " ").first)
        try xdotool("windowsize", String(window), "576", "324")
        let red = (0xe6, 0x1e, 0x1e)
        var image = (width: 0, height: 0, rgb: [UInt8]())
        // The whole width: the checkerboard's 8 columns (7 dark/light changes along a row), not the 4 of a part.
        func columnChanges() -> Int {
            var changes = 0
            for x in 1..<576 where (pixel(image, x, 150).0 < 100) != (pixel(image, x - 1, 150).0 < 100) { changes += 1 }
            return changes
        }
        #expect(preview.wait(5) {
            image = (try? screenshot(into: preview.folder)) ?? image
            return image.width > 0 && columnChanges() >= 6
        }, "\(columnChanges()) changes along a row: the picture is not scaled to the window")
        #expect(countPixels(image, near: red, tolerance: 40, x: 0..<576, y: 0..<50) > 576 * 50 * 9 / 10)
        // Nothing of it beyond the window.
        #expect(countPixels(image, near: red, tolerance: 40, x: 580..<1152, y: 0..<50) == 0)
    }

    /// T sets the self-timer (3 s): the shutter shows large yellow digits over the picture, the photo comes at zero;
    /// a second countdown is cancelled with Esc (no photo, the screen goes on).
    @Test func theSelfTimerCountsDownOnTheWindowAndEscCancelsIt() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let preview = try ScreenProcess(["preview", "--device", "/dev/video0", "--width", "640", "--height", "480", "--sink", "ximagesink",
                                         "--duration", "30"])
        defer { preview.remove() }
        _ = try #require(try firstWindow(), "no window: \(preview.errors)")
        #expect(preview.wait(8) { preview.output.contains("frames") }, "\(preview.errors)")
        try xdotool("mousemove", "320", "240", "key", "T")
        Thread.sleep(forTimeInterval: 0.3)
        try xdotool("key", "space")
        let yellow = (255, 214, 10)
        var image = (width: 0, height: 0, rgb: [UInt8]())
        #expect(preview.wait(2) {
            image = (try? screenshot(into: preview.folder)) ?? image
            return countPixels(image, near: yellow, tolerance: 40, x: 200..<440, y: 120..<360) > 800
        }, "no countdown digits on the picture")
        #expect(preview.savedPhotos.isEmpty, "the photo waits for zero")
        #expect(preview.wait(5) { preview.savedPhotos.count == 1 }, "\(preview.errors)")
        #expect(preview.wait(3) {
            image = (try? screenshot(into: preview.folder)) ?? image
            return countPixels(image, near: yellow, tolerance: 40, x: 200..<440, y: 120..<360) < 50
        }, "the digits are gone")
        try xdotool("key", "space")
        Thread.sleep(forTimeInterval: 0.5)
        try xdotool("key", "Escape")
        Thread.sleep(forTimeInterval: 3.5)
        #expect(preview.savedPhotos.count == 1, "a cancelled countdown takes no photo")
        #expect(preview.process.isRunning, "Esc during a countdown does not quit")
        try xdotool("key", "q")
        #expect(preview.exitStatus(within: 5) == 0)
    }

    @Test func theTerminalShowsTheCountdown() throws {
        let terminal = try TerminalScreenTests.TerminalSession(["--pipeline", "test-pattern", "--sink", "terminal"])
        defer { terminal.remove() }
        #expect(try terminal.wait(8) { try terminal.screen().contains("Test pattern") })
        _ = try terminal.tmux("send-keys", "-t", "0", "T")
        #expect(try terminal.wait(3) { try terminal.screen().contains("timer 3 s") })
        _ = try terminal.tmux("send-keys", "-t", "0", "Space")
        #expect(try terminal.wait(2) { try terminal.screen().contains("Photo in 3") || terminal.screen().contains("Photo in 2") },
                "\((try? terminal.screen()) ?? "")")
        _ = try terminal.tmux("send-keys", "-t", "0", "Escape")
        #expect(try terminal.wait(2) { try terminal.screen().contains("Self-timer cancelled") })
        Thread.sleep(forTimeInterval: 3)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: terminal.folder)) ?? []).allSatisfy { !$0.hasPrefix("IMG_") })
    }

    @Test func captureTimerCountsDownOnStandardError() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let started = Date()
        let result = try gstcam(["capture", "--pipeline", "test-pattern", "--timer", "2", "-o", folder + "/a.jpg"])
        #expect(result.status == 0, "\(result.error)")
        #expect(Date().timeIntervalSince(started) >= 1.9, "the photo came before zero")
        #expect(result.error.contains("Photo in 2… 1…\n"), "\(result.error)")
        #expect(FileManager.default.fileExists(atPath: folder + "/a.jpg"))
        #expect(try gstcam(["capture", "--pipeline", "test-pattern", "--timer", "3", "--count", "2"]).status == 64)
    }
}
