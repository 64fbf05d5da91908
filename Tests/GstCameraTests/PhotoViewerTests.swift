import Foundation
import Testing
import GstCamera

/// The photo viewer (`gstcam view`, `g` on the camera screen) under Xvfb (scripts/test), driven with xdotool. With
/// no window manager the viewer's window opens at the top left of the screen, over the camera's window; keys go
/// to the window under the pointer.
@Suite(.serialized) struct PhotoViewerTests {
    static let red = (208, 32, 32)
    static let blue = (32, 64, 208)
    static let orange = (255, 128, 0)
    static let green = (32, 192, 32)
    /// The camera's picture where the viewer was: the test pattern's first bar (videotestsrc's SMPTE bars are at
    /// full intensity, not 75 %).
    static let testPatternWhite = (255, 255, 255)

    /// A JPEG or PNG of one colour made by ImageMagick, dated `modified` (the gallery's order without EXIF).
    private func makePhoto(_ path: String, width: Int, height: Int, color: (Int, Int, Int), modified: String) throws {
        let hex = String(format: "#%02x%02x%02x", color.0, color.1, color.2)
        let made = try runProcess("/usr/bin/convert", ["-size", "\(width)x\(height)", "xc:\(hex)", path])
        #expect(made.status == 0, "\(made.error)")
        #expect(try runProcess("/usr/bin/touch", ["-d", modified, path]).status == 0)
    }

    /// Waits for a top-level window of `size` ("320x240") to be mapped.
    private func waitForWindow(sized size: String, timeout: Double = 10) throws -> Bool {
        let end = Date().addingTimeInterval(timeout)
        repeat {
            if try runProcess("/usr/bin/xwininfo", ["-root", "-children"]).output.contains(size + "+0+0") { return true }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < end
        return false
    }

    /// Takes screenshots until the pixel at (x, y) is near `color` (a window opens or changes asynchronously); a
    /// colour that never comes is a failure at the caller's line, with the colour seen last.
    private func waitForColor(_ color: (Int, Int, Int), at x: Int, _ y: Int, in folder: String, timeout: Double = 10,
                              sourceLocation: SourceLocation = #_sourceLocation) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let end = Date().addingTimeInterval(timeout)
        while true {
            let shot = try screenshot(into: folder)
            let seen = pixel(shot, x, y)
            if abs(seen.0 - color.0) <= 30, abs(seen.1 - color.1) <= 30, abs(seen.2 - color.2) <= 30 { return shot }
            if Date() >= end {
                Issue.record("(\(x), \(y)) stayed \(seen), not \(color), for \(timeout) s", sourceLocation: sourceLocation)
                return shot
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    @Test func viewShowsBrowsesTrashesAndPrintsTheChosenPhoto() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        let red = folder + "/photos/IMG_20261130_100000_000.jpg"
        let blue = folder + "/photos/IMG_20261129_100000_000.png"
        try makePhoto(red, width: 320, height: 240, color: Self.red, modified: "2026-11-30 10:00")
        // Taller than wide: shown pillarboxed in the window the first photo opened (aspect ratio kept).
        try makePhoto(blue, width: 200, height: 300, color: Self.blue, modified: "2026-11-29 10:00")
        // A recorded video, the oldest: shown as its first frame after the photos.
        let video = folder + "/photos/VID_20261128_100000_000.mp4"
        let encoded = try runProcess("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "pattern=solid-color", "foreground-color=0xff20c020",
            "num-buffers=2", "!", "video/x-raw,width=320,height=240,framerate=10/1", "!", "x264enc", "!", "mp4mux", "!", "filesink", "location=\(video)"])
        #expect(encoded.status == 0, "\(encoded.error)")
        #expect(try runProcess("/usr/bin/touch", ["-d", "2026-11-28 10:00", video]).status == 0)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = folder + "/data"
        environment["HOME"] = folder
        let viewer = try BackgroundGstcam(["view", "--dir", folder + "/photos", "--sink", "ximagesink"], environment: environment,
                                          folder: folder)
        defer { viewer.remove() }

        // The newest photo first, the size of the window; the status line names it. (No screenshots before the
        // window is there: each one is a client whose leaving may reset the X server while gstcam connects.)
        #expect(try waitForWindow(sized: "320x240"), "no viewer window: \(viewer.errors)")
        let first = try waitForColor(Self.red, at: 160, 100, in: folder)
        #expect(countPixels(first, near: Self.red, tolerance: 30, x: 0..<320, y: 40..<180) > 40_000, "pixel \(pixel(first, 160, 100)) \(viewer.errors)")
        #expect(countPixels(first, near: Self.red, tolerance: 30, x: 330..<600, y: 40..<180) == 0)
        let statusLine = countPixels(first, near: Self.red, tolerance: 30, x: 10..<200, y: 200..<222)
        #expect(statusLine < 3000, "no status line over the bottom of the photo: \(statusLine) red pixels")

        try xdotool("mousemove", "100", "100", "key", "Right")
        let second = try waitForColor(Self.blue, at: 160, 100, in: folder)
        #expect(countPixels(second, near: Self.blue, tolerance: 30, x: 100..<220, y: 20..<180) > 15_000)
        // 200×300 in 320×240: 160×240 in the middle, black borders left and right.
        let border = pixel(second, 20, 100)
        #expect(border.0 < 20 && border.1 < 20 && border.2 < 20, "left border: \(border)")

        // Delete: into the private trash, with its info file; trash-cli (not ours) lists it; the next one, the video,
        // shows; ← goes back to the red photo.
        try xdotool("key", "Delete")
        #expect(viewer.wait { !FileManager.default.fileExists(atPath: blue) }, "\(viewer.errors)")
        let trashed = folder + "/data/Trash/files/IMG_20261129_100000_000.png"
        #expect(FileManager.default.fileExists(atPath: trashed))
        let info = try String(contentsOfFile: folder + "/data/Trash/info/IMG_20261129_100000_000.png.trashinfo", encoding: .utf8)
        #expect(info.contains("Path=\(blue)\n"), "\(info)")
        let listed = try runProcess("/usr/bin/trash-list", [], environment: environment)
        #expect(listed.output.contains(" \(blue)"), "trash-list: \(listed.output) \(listed.error)")
        let videoShown = try waitForColor(Self.green, at: 160, 100, in: folder)
        #expect(countPixels(videoShown, near: Self.green, tolerance: 30, x: 0..<320, y: 40..<180) > 40_000, "\(viewer.errors)")
        try xdotool("key", "Left")
        _ = try waitForColor(Self.red, at: 160, 100, in: folder)

        try xdotool("key", "Return")
        #expect(viewer.exitStatus(within: 5) == 0, "\(viewer.errors)")
        #expect(viewer.output == red + "\n")
    }

    @Test func viewRefusesWhatItCannotShow() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let two = try runProcess(gstcamBinary, ["view", "a.jpg", "b.jpg"])
        #expect(two.status == 64 && two.error.contains("one FILE at most"), "\(two.error)")
        let both = try runProcess(gstcamBinary, ["view", "--last", "a.jpg"])
        #expect(both.status == 64 && both.error.contains("give FILE or --last, not both"), "\(both.error)")
        let empty = try runProcess(gstcamBinary, ["view", "--dir", folder, "--sink", "ximagesink"])
        #expect(empty.status == 1 && empty.error.contains("no photos in \(folder)"), "\(empty.error)")
        let notAPhoto = try runProcess(gstcamBinary, ["view", "/etc/hostname"])
        #expect(notAPhoto.status == 1 && notAPhoto.error.contains("/etc/hostname is not a JPEG or PNG photo"), "\(notAPhoto.error)")
        try makePhoto(folder + "/IMG_1.jpg", width: 32, height: 32, color: Self.red, modified: "2026-11-30 10:00")
        var noDisplay = ProcessInfo.processInfo.environment
        noDisplay["DISPLAY"] = nil
        noDisplay["WAYLAND_DISPLAY"] = nil
        let windowless = try runProcess(gstcamBinary, ["view", folder + "/IMG_1.jpg"], environment: noDisplay)
        #expect(windowless.status == 1 && windowless.error.contains("the photo viewer needs a window: neither DISPLAY nor WAYLAND_DISPLAY is set"),
                "\(windowless.error)")
    }

    @Test func gOpensTheViewerOverTheRunningCameraAndEscComesBack() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let screen = try ScreenProcess(["preview", "--pipeline", "test-pattern", "--sink", "ximagesink", "--width", "640",
                                        "--height", "480", "--duration", "30"]) { folder in
            try makePhoto(folder + "/photos/IMG_20261130_100000_000.jpg", width: 320, height: 240, color: Self.orange,
                          modified: "2026-11-30 10:00")
        }
        defer { screen.remove() }
        #expect(screen.wait { screen.output.contains("frames") }, "no figures: \(screen.errors)")
        try xdotool("mousemove", "100", "100", "key", "g")
        #expect(try waitForWindow(sized: "320x240"), "no viewer window: \(screen.errors)")
        let shown = try waitForColor(Self.orange, at: 160, 100, in: screen.folder)
        #expect(countPixels(shown, near: Self.orange, tolerance: 30, x: 0..<320, y: 40..<180) > 40_000, "\(screen.errors)")
        // The camera keeps running beside it: its figures go on.
        let lines = screen.output.split(separator: "\n").count
        #expect(screen.wait(3) { screen.output.split(separator: "\n").count >= lines + 2 })
        try xdotool("key", "Escape")
        let back = try waitForColor(Self.testPatternWhite, at: 40, 100, in: screen.folder)
        #expect(countPixels(back, near: Self.orange, tolerance: 30, x: 0..<320, y: 40..<180) < 100)
        // Esc closed the viewer only; the camera screen answers keys again.
        try xdotool("key", "q")
        #expect(screen.exitStatus(within: 5) == 0, "\(screen.errors)")
    }

    @Test func theSocketOpensAndClosesTheViewerAndEnterInItPrintsTheChosenPath() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let photo = "/photos/IMG_20261130_100000_000.jpg"
        let screen = try ScreenProcess(["preview", "--pipeline", "test-pattern", "--sink", "ximagesink", "--width", "640",
                                        "--height", "480", "--duration", "30"]) { folder in
            try makePhoto(folder + photo, width: 320, height: 240, color: Self.orange, modified: "2026-11-30 10:00")
        }
        defer { screen.remove() }
        #expect(screen.wait { screen.output.contains("frames") }, "no figures: \(screen.errors)")
        func send(_ request: String) throws -> ProcessResult {
            try runProcess(gstcamBinary, ["preview", "--pipeline", "test-pattern", "--send", request], environment: screen.environment())
        }
        // {"command":"viewer"} opens it over the camera; "open":false closes it.
        let opened = try send(#"{"command":"viewer"}"#)
        #expect(opened.status == 0 && opened.output.contains("Photo viewer: 1 photos and videos"), "\(opened.output)\(opened.error)")
        #expect(try waitForWindow(sized: "320x240"), "no viewer window: \(screen.errors)")
        _ = try waitForColor(Self.orange, at: 160, 100, in: screen.folder)
        let again = try send(#"{"command":"viewer","open":true}"#)
        #expect(again.output.contains("The photo viewer is open"), "\(again.output)")
        let closed = try send(#"{"command":"viewer","open":false}"#)
        #expect(closed.status == 0 && closed.output.contains("Photo viewer closed"), "\(closed.output)\(closed.error)")
        let back = try waitForColor(Self.testPatternWhite, at: 40, 100, in: screen.folder)
        #expect(countPixels(back, near: Self.orange, tolerance: 30, x: 0..<320, y: 40..<180) < 100, "the viewer did not close")
        let notOpen = try send(#"{"command":"viewer","open":false}"#)
        #expect(notOpen.status == 1 && notOpen.output.contains("The photo viewer is not open"), "\(notOpen.output)")
        let wrong = try send(#"{"command":"viewer","open":"yes"}"#)
        #expect(wrong.status == 1 && wrong.output.contains("must be true or false (left out: true)"), "\(wrong.output)")

        // g, then Enter in the viewer: the chosen photo's path on stdout, and the camera again.
        try xdotool("mousemove", "100", "100", "key", "g")
        _ = try waitForColor(Self.orange, at: 160, 100, in: screen.folder)
        try xdotool("key", "Return")
        #expect(screen.wait(5) { screen.output.contains("\n" + screen.folder + photo + "\n") }, "no chosen path: \(screen.output)")
        _ = try waitForColor(Self.testPatternWhite, at: 40, 100, in: screen.folder)
        try xdotool("key", "q")
        #expect(screen.exitStatus(within: 5) == 0, "\(screen.errors)")
    }

    /// A photo whose EXIF Orientation is 6 (stored on its side, "turn 90° clockwise to show") shows upright: the
    /// blue band along the stored pixels' top is along the right edge, in a window as tall as the photo is shown.
    @Test func aPhotoIsShownTurnedByItsEXIFOrientation() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        let photo = folder + "/photos/IMG_20261130_100000_000.jpg"
        let made = try runProcess("/usr/bin/convert", ["-size", "320x240", "xc:#d02020", "-fill", "#2040d0", "-draw", "rectangle 0,0 319,59", photo])
        #expect(made.status == 0, "\(made.error)")
        let tagged = try runProcess("/usr/bin/exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=6", photo])
        #expect(tagged.status == 0, "\(tagged.error)")
        let viewer = try BackgroundGstcam(["view", "--dir", folder + "/photos", "--sink", "ximagesink"], folder: folder)
        defer { viewer.remove() }
        #expect(try waitForWindow(sized: "240x320"), "no upright window: \(viewer.errors)")
        let shown = try waitForColor(Self.red, at: 60, 160, in: folder)
        // Turned clockwise: the band is the right 60 columns, the rest red; none of it along the top.
        let right = countPixels(shown, near: Self.blue, tolerance: 30, x: 185..<235, y: 60..<270)
        let top = countPixels(shown, near: Self.blue, tolerance: 30, x: 0..<170, y: 0..<55)
        #expect(right > 8000 && top == 0, "not turned: \(right) blue pixels on the right, \(top) along the top")
        try xdotool("mousemove", "100", "100", "key", "Escape")
        #expect(viewer.exitStatus(within: 5) == 2, "\(viewer.errors)")
    }

    /// A video is played in the viewer's window with space (its later frames show), and Esc while it plays stops it
    /// without closing the viewer (Enter then still chooses it).
    @Test func spacePlaysAVideoInTheWindowAndEscStopsIt() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/videos", withIntermediateDirectories: true)
        // Green for 0.6 s, then blue for 8 s.
        let video = folder + "/videos/VID_20261128_100000_000.mp4"
        let made = try runProcess("/usr/bin/ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "color=c=0x20c020:s=320x240:r=10:d=0.6",
                                                     "-f", "lavfi", "-i", "color=c=0x2040d0:s=320x240:r=10:d=8",
                                                     "-filter_complex", "[0:v][1:v]concat=n=2:v=1[v]", "-map", "[v]",
                                                     "-c:v", "libx264", "-pix_fmt", "yuv420p", video])
        #expect(made.status == 0, "\(made.error)")
        let viewer = try BackgroundGstcam(["view", "--dir", folder + "/videos", "--sink", "ximagesink"], folder: folder)
        defer { viewer.remove() }
        // A video's size is not read before it is decoded: the window opens at 640×480 and scales it.
        #expect(try waitForWindow(sized: "640x480"), "no viewer window: \(viewer.errors)")
        _ = try waitForColor(Self.green, at: 160, 100, in: folder)
        try xdotool("mousemove", "100", "100", "key", "space")
        let playing = try waitForColor(Self.blue, at: 160, 100, in: folder)
        #expect(countPixels(playing, near: Self.blue, tolerance: 30, x: 0..<640, y: 80..<400) > 150_000, "not played: \(viewer.errors)")
        try xdotool("key", "Escape")
        try xdotool("key", "Return")
        #expect(viewer.exitStatus(within: 5) == 0, "Esc while playing closed the viewer: \(viewer.errors)")
        #expect(viewer.output == video + "\n")
    }
}
