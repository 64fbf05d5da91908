import Foundation
import Testing
import GstCamera

/// The camera screen in a window under Xvfb (scripts/test), driven with real X input from xdotool. With no
/// window manager the 640×480 window sits at the top left of the screen, so screen and video coordinates agree.
@Suite(.serialized) struct ScreenWindowTests {
    static let focusYellow = (255, 214, 10)

    @Test func overlaysAreDrawnInTheWindowButNotInThePhoto() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let screen = try ScreenProcess(["preview", "--pipeline", "test-pattern", "--sink", "ximagesink", "--duration", "10"])
        defer { screen.remove() }
        #expect(screen.wait { screen.output.contains("frames") }, "no figures: \(screen.errors)")
        try xdotool("mousemove", "320", "240", "click", "4", "click", "4")
        // Click, and take the photo at once, while the focus square shows (it is gone 0.6 s after the click); a
        // loaded machine may miss that window, so up to three tries. The screenshot comes before the photo: a
        // photo flashes the window white for 150 ms (the control bar's shutter animation).
        var window = (width: 0, height: 0, rgb: [UInt8]())
        var square = 0
        for attempt in 1...3 {
            try xdotool("click", "1")
            Thread.sleep(forTimeInterval: 0.1)
            window = try screenshot(into: screen.folder)
            try xdotool("key", "space")
            #expect(screen.wait { screen.savedPhotos.count == attempt }, "no photo: \(screen.errors)")
            square = countPixels(window, near: Self.focusYellow, tolerance: 20, x: 200..<440, y: 120..<360)
            if square > 300 { break }
            Thread.sleep(forTimeInterval: 0.7)
        }
        let photo = try decodeImage(try #require(screen.savedPhotos.last))
        #expect(photo.width == 640 && photo.height == 480)

        // Two wheel steps zoomed in 1.25² ≈ 1.56×: the white bar at the left edge is cropped away, yellow is first.
        let left = pixel(photo, 10, 100)
        #expect(left.0 > 200 && left.1 > 200 && left.2 < 60, "left edge of the zoomed photo: \(left)")
        // The focus square around the click (side 22% of 480 px, springing from 1.4×): yellow in the window only.
        #expect(square > 300, "focus square pixels in the window: \(square)")
        #expect(countPixels(photo, near: Self.focusYellow, tolerance: 20, x: 200..<440, y: 120..<360) < 20)
        // The status line (bottom left) differs from the photo; the middle of the colour bars does not.
        var statusDifferences = 0, barDifferences = 0
        for y in 430..<460 { for x in 20..<400 where distance(pixel(window, x, y), pixel(photo, x, y)) > 90 { statusDifferences += 1 } }
        for y in 150..<300 { for x in 560..<620 where distance(pixel(window, x, y), pixel(photo, x, y)) > 60 { barDifferences += 1 } }
        #expect(statusDifferences > 500, "status line pixels: \(statusDifferences)")
        #expect(barDifferences < 30, "window and photo differ away from the overlays: \(barDifferences)")

        // The test pattern has no device: the screen says so instead of pretending (and so does stderr).
        #expect(screen.errors.contains("Focus not available: the test pattern has no camera device"))
        try xdotool("key", "t")
        #expect(screen.wait(2) { screen.errors.contains("Torch not available: the test pattern has no camera device") })
        try xdotool("key", "q")
        #expect(screen.exitStatus(within: 3) == 0)
        #expect(screen.output.contains("Saved \(screen.savedPhotos.last ?? "?") (640x480)"))
    }

    @Test func clickFocusesAtThePointAndKeysDriveTheCamera() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let screen = try ScreenProcess(["preview", "--device", "/dev/video0", "--width", "640", "--height", "480",
                                        "--sink", "ximagesink", "--duration", "15"])
        defer { screen.remove() }
        func get(_ device: String, _ control: String) throws -> String {
            try runProcess(gstcamBinary, ["get", "--device", device, control], environment: screen.environment()).output
        }
        #expect(screen.wait { screen.output.contains("frames") }, "no figures: \(screen.errors)")
        // A click at (0.75, 0.25) of the picture: a quarter-size ROI of the 1920×1080 control area centred there.
        try xdotool("mousemove", "480", "120", "click", "1")
        #expect(screen.wait(3) { (try? get("/dev/video0", "region_of_interest_rectangle")) == "region_of_interest_rectangle=1200,135,480x270\n" },
                "ROI: \((try? get("/dev/video0", "region_of_interest_rectangle")) ?? "?") \(screen.errors)")
        // a: continuous auto focus off; the uvc profile has no torch, which the screen and stderr say.
        try xdotool("key", "a")
        #expect(screen.wait(3) { (try? get("/dev/video0", "focus_automatic_continuous")) == "focus_automatic_continuous=false\n" })
        try xdotool("key", "t")
        #expect(screen.wait(3) { screen.errors.contains("Torch not available on this camera") })
        // c: the next camera (the sensor profile, which has a torch); t lights it.
        try xdotool("key", "c")
        Thread.sleep(forTimeInterval: 1)
        try xdotool("key", "t")
        #expect(screen.wait(3) { (try? get("/dev/video2", "led_mode"))?.hasPrefix("led_mode=2") == true },
                "led_mode: \((try? get("/dev/video2", "led_mode")) ?? "?") \(screen.errors)")
        try xdotool("key", "Return")
        #expect(screen.wait(3) { screen.savedPhotos.count == 1 }, "\(screen.errors)")
        try xdotool("key", "Escape")
        #expect(screen.exitStatus(within: 3) == 0)
    }
}

private func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
    abs(a.0 - b.0) + abs(a.1 - b.1) + abs(a.2 - b.2)
}
