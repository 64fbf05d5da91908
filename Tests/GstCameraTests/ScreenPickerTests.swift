import Foundation
import Testing
import GstCamera

/// `gstcam capture --preview` (the camera screen as a picker) and closing the window, under Xvfb.
@Suite(.serialized) struct ScreenPickerTests {
    @Test func spaceTakesThePhotoAndPrintsItsPath() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let picker = try ScreenProcess(["capture", "--preview", "--pipeline", "test-pattern"])
        defer { picker.remove() }
        let window = try #require(try firstWindow(), "no window: \(picker.errors)")
        _ = window
        try xdotool("mousemove", "320", "240", "key", "space")
        #expect(picker.exitStatus(within: 5) == 0, "\(picker.errors)")
        let photo = try #require(picker.savedPhotos.first)
        #expect(picker.output == photo + "\n")
        #expect(try decodeImage(photo).width == 640)
    }

    @Test func escapeCancelsWithStatus2AndNoFile() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let picker = try ScreenProcess(["capture", "--preview", "--pipeline", "test-pattern"])
        defer { picker.remove() }
        _ = try #require(try firstWindow(), "no window: \(picker.errors)")
        // The window can be mapped a moment before the screen reads its keys (on a loaded machine): press Esc
        // again, as a person would, until the picker reacts.
        for _ in 0..<5 where picker.process.isRunning {
            try xdotool("mousemove", "320", "240", "key", "Escape")
            picker.wait(2) { !picker.process.isRunning }
        }
        #expect(picker.exitStatus(within: 5) == 2)
        #expect(picker.savedPhotos.isEmpty)
        #expect(picker.output.isEmpty)
        #expect(picker.errors.contains("gstcam: cancelled; no photo was taken.\n"))
    }

    @Test(arguments: ["ximagesink", "autovideosink"])
    func closingTheWindowQuitsCleanly(sink: String) throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let preview = try ScreenProcess(["preview", "--pipeline", "test-pattern", "--sink", sink, "--duration", "10"])
        defer { preview.remove() }
        let window = try #require(try firstWindow(), "no window: \(preview.errors)")
        #expect(preview.wait { preview.output.contains("frames") })
        try closeLikeAWindowManager(window)
        #expect(preview.exitStatus(within: 3) == 0, "\(preview.errors)")
        #expect(!preview.errors.contains("gstcam:"), "\(preview.errors)")
    }

    @Test func closingThePickerCancels() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let picker = try ScreenProcess(["capture", "--preview", "--pipeline", "test-pattern"])
        defer { picker.remove() }
        let window = try #require(try firstWindow(), "no window: \(picker.errors)")
        Thread.sleep(forTimeInterval: 0.5)
        try closeLikeAWindowManager(window)
        #expect(picker.exitStatus(within: 3) == 2)
        #expect(picker.savedPhotos.isEmpty)
    }
}
