import Foundation
import Testing
import GstCamera

/// Needs an X display: scripts/test runs the suite under xvfb-run.
@Suite struct DisplayTests {
    @Test func previewWithAVideoSinkShowsTheCameraInAWindow() throws {
        let display = try #require(ProcessInfo.processInfo.environment["DISPLAY"], "no X display: run the tests with scripts/test (xvfb-run)")
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let preview = Process()
        preview.executableURL = URL(fileURLWithPath: gstcamBinary)
        preview.arguments = ["preview", "--pipeline", "test-pattern", "--width", "320", "--height", "240",
                             "--sink", "ximagesink", "--duration", "4"]
        preview.standardOutput = Pipe()
        preview.standardError = Pipe()
        try preview.run()
        defer { if preview.isRunning { preview.terminate() } }
        Thread.sleep(forTimeInterval: 2)
        let screenshot = folder + "/screen.png"
        let grab = try runProcess("/usr/bin/import", ["-display", display, "-window", "root", screenshot])
        #expect(grab.status == 0, "\(grab.error)")
        preview.waitUntilExit()
        #expect(preview.terminationStatus == 0)
        let image = try decodeImage(screenshot)
        func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let offset = (y * image.width + x) * 3
            return (Int(image.rgb[offset]), Int(image.rgb[offset + 1]), Int(image.rgb[offset + 2]))
        }
        // With no window manager the window sits at the top left: the colour bars, then the black root window.
        let white = pixel(20, 40), yellow = pixel(65, 40), blue = pixel(300, 40), outside = pixel(image.width - 10, image.height - 10)
        #expect(white.0 > 170 && white.1 > 170 && white.2 > 170, "white bar: \(white)")
        #expect(yellow.0 > 170 && yellow.1 > 170 && yellow.2 < 70, "yellow bar: \(yellow)")
        #expect(blue.0 < 70 && blue.1 < 70 && blue.2 > 170, "blue bar: \(blue)")
        #expect(outside.0 < 30 && outside.1 < 30 && outside.2 < 30, "outside the window: \(outside)")
    }
}
