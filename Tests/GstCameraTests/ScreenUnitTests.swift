import Testing
@testable import Controls
@testable import Screen
@testable import Session

/// The camera screen's pieces without a display.
@Suite struct ScreenUnitTests {
    @Test func theFocusSquareSpringsHoldsFadesAndGoes() throws {
        let start = try #require(FocusSquare.appearance(age: 0))
        #expect(start.scale == 1.4 && start.opacity == 1)
        let held = try #require(FocusSquare.appearance(age: 0.2))
        #expect(held.scale == 1 && held.opacity == 1)
        let fading = try #require(FocusSquare.appearance(age: 0.5))
        #expect(fading.opacity > 0 && fading.opacity < 1)
        #expect(FocusSquare.appearance(age: 0.6) == nil)
    }

    @Test func theFocusSquareIsAnOutlineInTheFormatsChannels() {
        var pixels = [UInt8](repeating: 0, count: 100 * 100 * 4)
        pixels.withUnsafeMutableBytes {
            FocusSquare.draw(into: $0, width: 100, height: 100, bytesPerRow: 400, channels: (2, 1, 0),
                             center: NormalizedPoint(x: 0.5, y: 0.5), scale: 1, opacity: 1)
        }
        // Side 22 px around (50, 50): the left edge at x 39, the centre untouched; BGRx: blue first.
        let edge = (50 * 100 + 39) * 4, centre = (50 * 100 + 50) * 4
        #expect(Array(pixels[edge..<edge + 3]) == [10, 214, 255])
        #expect(Array(pixels[centre..<centre + 3]) == [0, 0, 0])
    }

    @Test func aClickOnTheZoomedPictureIsMappedToTheWholeFrame() {
        let point = NormalizedPoint(x: 0, y: 1)
        #expect(CameraOperator.sensorPoint(point, zoom: .none) == point)
        #expect(CameraOperator.sensorPoint(point, zoom: Zoom(factor: 2)) == NormalizedPoint(x: 0.25, y: 0.75))
        // Zoomed towards the right edge: the crop stays inside the frame.
        #expect(CameraOperator.sensorPoint(NormalizedPoint(x: 1, y: 0.5), zoom: Zoom(factor: 4, centerX: 1)) == NormalizedPoint(x: 1, y: 0.5))
    }

    @Test func keysMapToActions() {
        #expect(CameraAction(key: "space") == .capture())
        #expect(CameraAction(key: "Return") == .capture())
        #expect(CameraAction(key: "plus") == .zoomIn)
        #expect(CameraAction(key: "minus") == .zoomOut)
        #expect(CameraAction(key: "0") == .resetZoom)
        #expect(CameraAction(key: "Escape") == .quit)
        #expect(CameraAction(key: "x") == nil)
    }
}
