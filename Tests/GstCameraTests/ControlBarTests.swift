import Foundation
import Testing
@testable import Screen

/// The window's control bar under Xvfb, clicked with real X input (xdotool). With no window manager the 640×480
/// window sits at the top left of the screen, so screen and picture coordinates agree; the bar's layout is
/// ControlBar.Layout's at 640×480 (shutter at (320, 390), thumbnail at (530, 390), the band y 348…432).
@Suite(.serialized) struct ControlBarTests {
    static let cyan = (0x1e, 0xc8, 0xe0)
    static let devices = "/dev/video0=uvc,color=1ec8e0;/dev/video2=sensor"
    static let layout = ControlBar.Layout(width: 640, height: 480)

    static func center(_ button: ControlBar.Button) -> (x: Int, y: Int) {
        let place = layout.places[button]!
        return (Int(place.x), Int(place.y))
    }

    /// White pixels of the shutter button (ring and disc).
    static func shutterWhite(_ image: (width: Int, height: Int, rgb: [UInt8])) -> Int {
        let (x, y) = center(.shutter)
        return countPixels(image, near: (255, 255, 255), tolerance: 12, x: (x - 36)..<(x + 36), y: (y - 36)..<(y + 36))
    }

    static func thumbnailCyan(_ image: (width: Int, height: Int, rgb: [UInt8])) -> Int {
        let (x, y) = center(.thumbnail)
        return countPixels(image, near: cyan, tolerance: 30, x: (x - 36)..<(x + 36), y: (y - 27)..<(y + 27))
    }

    @Test func theBarsButtonsTakePhotosWithoutMovingFocusShowTheLastPhotoAndHide() throws {
        try #require(ProcessInfo.processInfo.environment["DISPLAY"] != nil, "no X display: run the tests with scripts/test")
        let screen = try ScreenProcess(["preview", "--device", "/dev/video0", "--width", "640", "--height", "480",
                                        "--sink", "ximagesink", "--duration", "25"], devices: Self.devices)
        defer { screen.remove() }
        func roi() -> String {
            (try? runProcess(gstcamBinary, ["get", "--device", "/dev/video0", "region_of_interest_rectangle"],
                             environment: screen.environment(devices: Self.devices)).output) ?? "?"
        }
        #expect(screen.wait { screen.output.contains("frames") }, "no figures: \(screen.errors)")
        var before = (width: 0, height: 0, rgb: [UInt8]())
        #expect(screen.wait(5) {
            before = (try? screenshot(into: screen.folder, name: "bar.png")) ?? before
            return Self.shutterWhite(before) > 1500
        }, "no shutter button in the window")
        #expect(Self.thumbnailCyan(before) < 50, "a thumbnail before any photo")
        let focusBefore = roi()

        // A click on the shutter button: a photo, as space takes it; the focus point stays where it was.
        let shutter = Self.center(.shutter)
        try xdotool("mousemove", "\(shutter.x)", "\(shutter.y)", "click", "1")
        #expect(screen.wait(5) { screen.savedPhotos.count == 1 }, "no photo from the shutter button: \(screen.errors)")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(roi() == focusBefore, "a click on the bar moved the focus point")
        #expect(!screen.errors.contains("Focus"), "\(screen.errors)")

        // The thumbnail shows the photo: the camera's cyan band along its top.
        var after = before
        #expect(screen.wait(5) {
            after = (try? screenshot(into: screen.folder, name: "thumbnail.png")) ?? after
            return Self.thumbnailCyan(after) > 150
        }, "the thumbnail does not show the photo: \(Self.thumbnailCyan(after)) cyan pixels")

        // h hides the bar: the shutter button is gone from the picture.
        try xdotool("key", "h")
        var hidden = after
        #expect(screen.wait(5) {
            hidden = (try? screenshot(into: screen.folder, name: "hidden.png")) ?? hidden
            return Self.shutterWhite(hidden) < 300
        }, "h did not hide the bar: \(Self.shutterWhite(hidden)) white pixels")
        // A click where the shutter was now focuses there instead of taking a photo.
        try xdotool("click", "1")
        #expect(screen.wait(3) { roi() != focusBefore }, "a click on the hidden bar's place did not focus")
        #expect(screen.savedPhotos.count == 1)

        // Unplugged: the window stays, with the full-window error view (the warning sign, the camera, what
        // happened and the fix) over the waiting picture; plugged back in, the preview and its bar return.
        try xdotool("key", "h")
        #expect(screen.wait(5) { ((try? screenshot(into: screen.folder, name: "shown.png")).map(Self.shutterWhite) ?? 0) > 1500 },
                "h did not show the bar again")
        try ScreenRecoveryTests.fault(screen, "unplugged", present: true, device: "video0")
        #expect(screen.wait(5) { screen.errors.contains("Camera disconnected — waiting for it") }, "\(screen.errors)")
        var gone = hidden
        #expect(screen.wait(5) {
            gone = (try? screenshot(into: screen.folder, name: "error.png")) ?? gone
            return countPixels(gone, near: (0xFF, 0xD6, 0x0A), tolerance: 20, x: 280..<360, y: 60..<140) > 800
        }, "no warning sign in the window")
        let text = countPixels(gone, near: (255, 255, 255), tolerance: 40, x: 0..<640, y: 150..<340)
        #expect(text > 1500, "no error text in the window: \(text) white pixels")
        #expect(screen.process.isRunning, "the window closed on the unplug")
        try ScreenRecoveryTests.fault(screen, "unplugged", present: false, device: "video0")
        #expect(screen.wait(8) { screen.errors.contains("is back (/dev/video0)") }, "\(screen.errors)")
        var back = gone
        #expect(screen.wait(5) {
            back = (try? screenshot(into: screen.folder, name: "back.png")) ?? back
            return countPixels(back, near: Self.cyan, tolerance: 30, x: 0..<640, y: 0..<70) > 20_000 && Self.shutterWhite(back) > 1500
        }, "the preview and its bar are not back: \(Self.shutterWhite(back)) white shutter pixels")
        try xdotool("key", "q")
        #expect(screen.exitStatus(within: 5) == 0)
    }
}
