import Foundation
import Testing

/// `gstcam scan`: QR codes shown to a camera are read by GStreamer's zbar on the scan branch. The "camera" is a
/// pipeline file that shows a QR image made by qrencode (a still picture, as live frames).
@Suite(.serialized) struct CodeScanTests {
    /// A pipeline file (the camera contract: source, zoom, split, preview) showing a QR code of `text`.
    static func qrCamera(_ text: String, in folder: String) throws -> String {
        let made = try runProcess("/usr/bin/qrencode", ["-o", folder + "/qr.png", "-s", "6", "-m", "4", text])
        #expect(made.status == 0, "qrencode: \(made.error)")
        let pipeline = """
        filesrc location=\(folder)/qr.png ! pngdec ! imagefreeze name=source is-live=true
          ! videoconvert ! videoscale
          ! capsfilter name=source-caps caps="video/x-raw,width=${width},height=${height},framerate=${framerate}"
          ! videoconvert ! videocrop name=zoom ! videoscale ! video/x-raw,width=${width},height=${height}
          ! tee name=split
        split. ! queue leaky=downstream max-size-buffers=2 ! videoconvert ! video/x-raw,format=RGB ! appsink name=preview
        """
        try pipeline.write(toFile: folder + "/qr.pipeline", atomically: true, encoding: .utf8)
        return folder + "/qr.pipeline"
    }

    @Test func scanPrintsTheCodeShownOnceAndOnceExitsAfterIt() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let camera = try Self.qrCamera("https://example.org/gstcam?scan=1", in: folder)
        let once = try gstcam(["scan", "--pipeline", camera, "--once"])
        #expect(once.status == 0, "\(once.error)")
        #expect(once.output == "https://example.org/gstcam?scan=1\n")
        // Seen at up to 5 frames a second for 2 s, printed once.
        let json = try gstcam(["scan", "--pipeline", camera, "--json", "--duration", "2"])
        #expect(json.status == 0, "\(json.error)")
        #expect(json.output == #"{"text":"https:\/\/example.org\/gstcam?scan=1","type":"QR-Code"}"# + "\n"
                || json.output == #"{"text":"https://example.org/gstcam?scan=1","type":"QR-Code"}"# + "\n", "\(json.output)")
    }

    @Test func noCodeInTheTimeIsAFailure() throws {
        let result = try gstcam(["scan", "--pipeline", "test-pattern", "--duration", "1"])
        #expect(result.status == 1)
        #expect(result.error.hasSuffix("gstcam: no code was read in 1.0 s\n"), "\(result.error)")
        #expect(result.output.isEmpty)
    }
}

extension CodeScanTests {
    /// The camera screen's `s`: the code read shows in the terminal view.
    @Test func sOnTheScreenShowsTheCode() throws {
        let folder = try makeTemporaryFolder()
        let camera = try Self.qrCamera("gstcam screen scan", in: folder)
        let terminal = try TerminalScreenTests.TerminalSession(["--pipeline", camera, "--sink", "terminal"])
        defer {
            terminal.remove()
            try? FileManager.default.removeItem(atPath: folder)
        }
        #expect(try terminal.wait(8) { try terminal.screen().contains("640×480") }, "\((try? terminal.screen()) ?? "")")
        _ = try terminal.tmux("send-keys", "-t", "0", "s")
        #expect(try terminal.wait(4) { try terminal.screen().contains("QR-Code: gstcam screen scan") }, "\((try? terminal.screen()) ?? "")")
    }
}

extension CodeScanTests {
    /// The window's `s`: a code read is highlighted for a moment — its outline in green (the QR code spans about
    /// x 130…510, y 50…430 of the 640×480 picture, the test image letterboxed between black bars) and a card with its
    /// text — then the highlight goes.
    @Test func sInTheWindowHighlightsTheCodeRead() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let camera = try Self.qrCamera("https://example.org/gstcam?scan=window", in: folder)
        let screen = try ScreenProcess(["preview", "--pipeline", camera, "--width", "640", "--height", "480", "--sink", "ximagesink",
                                        "--duration", "20"])
        defer { screen.remove() }
        func green(_ image: (width: Int, height: Int, rgb: [UInt8])) -> Int {
            countPixels(image, near: (0x30, 0xD1, 0x58), tolerance: 30, x: 0..<640, y: 0..<480)
        }
        #expect(screen.wait(8) { screen.output.contains("frames") }, "no figures: \(screen.errors)")
        var image = (width: 0, height: 0, rgb: [UInt8]())
        image = try screenshot(into: screen.folder, name: "before.png")
        #expect(green(image) < 200, "green before any code: \(green(image))")
        try xdotool("mousemove", "320", "240", "key", "s")
        #expect(screen.wait(5) { screen.output.contains("https://example.org/gstcam?scan=window\n") }, "\(screen.output)\(screen.errors)")
        #expect(screen.wait(3) {
            image = (try? screenshot(into: screen.folder, name: "highlight.png")) ?? image
            return green(image) > 5000
        }, "no highlight: \(green(image)) green pixels")
        // The outline runs along the code's left edge, and not round the whole picture (nothing in the black bar).
        let edge = countPixels(image, near: (0x30, 0xD1, 0x58), tolerance: 30, x: 118..<142, y: 60..<280)
        let bar = countPixels(image, near: (0x30, 0xD1, 0x58), tolerance: 30, x: 0..<40, y: 0..<270)
        #expect(edge > 800 && bar < 100, "not the code's outline: \(edge) green pixels on its left edge, \(bar) in the black bar")
        // The card with the code's text above the control bar, outlined in the same green.
        let card = countPixels(image, near: (0x30, 0xD1, 0x58), tolerance: 30, x: 40..<600, y: 280..<356)
        #expect(card > 1500, "no card for the code: \(card) green pixels round it")
        // It goes after a moment; the code is not read again (each code once).
        #expect(screen.wait(6) {
            image = (try? screenshot(into: screen.folder, name: "after.png")) ?? image
            return green(image) < 200
        }, "the highlight stays: \(green(image)) green pixels")
        try xdotool("mousemove", "320", "240", "key", "q")
        #expect(screen.exitStatus(within: 5) == 0, "\(screen.errors)")
    }
}
