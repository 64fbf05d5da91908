import Glibc
import Testing
@testable import CameraErrors
@testable import Controls
@testable import V4L2

/// Control logic that needs no device: names, suggestions, percentages, value parsing.
@Suite struct ControlsUnitTests {
    static func control(_ label: String, type: ControlType = .integer, range: ClosedRange<Int64> = 0...255, step: UInt64 = 1,
                        menu: [String] = [], flags: ControlFlags = []) -> CameraControl {
        let query = ControlQuery(id: 0x0098_0900, type: type, label: label, minimum: range.lowerBound, maximum: range.upperBound,
                                 step: step, defaultValue: range.lowerBound, flags: flags, elementSize: 4, elements: 1)
        let items = menu.enumerated().map { ControlMenuItem(index: Int64($0.offset), name: $0.element) }
        return CameraControl(query: query, value: .integer(range.lowerBound), menu: items, className: "User Controls")
    }

    @Test(arguments: [
        ("Brightness", "brightness"),
        ("Focus, Automatic Continuous", "focus_automatic_continuous"),
        ("White Balance Temperature, Auto", "white_balance_temperature_auto"),
        ("Exposure Time, Absolute", "exposure_time_absolute"),
        ("  Pan (Absolute) ", "pan_absolute"),
        ("Region of Interest Rectangle", "region_of_interest_rectangle"),
        ("LED1 Mode", "led1_mode"),
        ("--", ""),
    ])
    func namesAsV4L2CtlPrintsThem(label: String, name: String) {
        #expect(ControlName.from(label: label) == name)
    }

    @Test func suggestionsFindTyposAndFragments() {
        let names = ["brightness", "contrast", "focus_absolute", "focus_automatic_continuous", "zoom_absolute", "saturation"]
        #expect(ControlName.suggestions(for: "brigthness", among: names) == ["brightness"])
        #expect(ControlName.suggestions(for: "focus", among: names) == ["focus_absolute", "focus_automatic_continuous"])
        #expect(ControlName.suggestions(for: "Zoom", among: names) == ["zoom_absolute"])
        #expect(ControlName.suggestions(for: "gamma", among: names).isEmpty)
    }

    @Test func percentagesLandOnTheStepGrid() {
        #expect(ControlValueParser.value(atPercent: 60, minimum: 0, maximum: 255, step: 1) == 153)
        #expect(ControlValueParser.value(atPercent: 50, minimum: -64, maximum: 64, step: 1) == 0)
        #expect(ControlValueParser.value(atPercent: 0, minimum: -64, maximum: 64, step: 1) == -64)
        #expect(ControlValueParser.value(atPercent: 100, minimum: -64, maximum: 64, step: 1) == 64)
        #expect(ControlValueParser.value(atPercent: 50, minimum: 0, maximum: 255, step: 5) == 130)
        // 100% of 0…10 step 3 would be 12: the largest value on the grid is 9.
        #expect(ControlValueParser.value(atPercent: 100, minimum: 0, maximum: 10, step: 3) == 9)
        #expect(ControlValueParser.value(atPercent: 33.3, minimum: 1, maximum: 10000, step: 1) == 3331)
    }

    @Test func integersPercentagesAndRanges() throws {
        let brightness = Self.control("Brightness")
        #expect(try ControlValueParser.parse("60%", for: brightness) == .integer(153))
        #expect(try ControlValueParser.parse(" 42 ", for: brightness) == .integer(42))
        #expect(try ControlValueParser.parse("0x10", for: brightness) == .integer(16))
        #expect(throws: CameraError.controlOutOfRange(name: "brightness", value: "300", minimum: 0, maximum: 255, step: 1)) {
            try ControlValueParser.parse("300", for: brightness)
        }
        #expect(throws: CameraError.controlOutOfRange(name: "brightness", value: "120%", minimum: 0, maximum: 255, step: 1)) {
            try ControlValueParser.parse("120%", for: brightness)
        }
        #expect(throws: CameraError.self) { try ControlValueParser.parse("bright", for: brightness) }
        let text = CameraError.controlOutOfRange(name: "brightness", value: "300", minimum: 0, maximum: 255, step: 1).description
        #expect(text == "300 is out of range for brightness: use 0…255, or a percentage (e.g. brightness=50%).")
    }

    @Test func booleans() throws {
        let switchControl = Self.control("Focus, Automatic Continuous", type: .boolean, range: 0...1)
        for word in ["true", "on", "1", "YES"] { #expect(try ControlValueParser.parse(word, for: switchControl) == .integer(1)) }
        for word in ["false", "off", "0", "no"] { #expect(try ControlValueParser.parse(word, for: switchControl) == .integer(0)) }
        #expect(throws: CameraError.controlBadValue(name: "focus_automatic_continuous", value: "maybe",
                                                     expected: "true or false (on/off, 1/0)")) {
            try ControlValueParser.parse("maybe", for: switchControl)
        }
    }

    @Test func menuItemsByNameOrIndex() throws {
        let exposure = Self.control("Auto Exposure", type: .menu, range: 0...3,
                                    menu: ["Auto Mode", "Manual Mode", "Shutter Priority Mode", "Aperture Priority Mode"])
        #expect(try ControlValueParser.parse("manual_mode", for: exposure) == .integer(1))
        #expect(try ControlValueParser.parse("Aperture Priority Mode", for: exposure) == .integer(3))
        #expect(try ControlValueParser.parse("2", for: exposure) == .integer(2))
        #expect(throws: CameraError.controlNotMenuItem(name: "auto_exposure", value: "7", items: [
            "0 Auto Mode", "1 Manual Mode", "2 Shutter Priority Mode", "3 Aperture Priority Mode"])) {
            try ControlValueParser.parse("7", for: exposure)
        }
        #expect(throws: CameraError.controlBadValue(name: "auto_exposure", value: "sport", expected:
            "one of: auto_mode (0), manual_mode (1), shutter_priority_mode (2), aperture_priority_mode (3)")) {
            try ControlValueParser.parse("sport", for: exposure)
        }
    }

    @Test func rectangles() throws {
        let roi = Self.control("Region of Interest Rectangle", type: .rectangle, range: 0...0)
        #expect(try ControlValueParser.parse("10,20,300x200", for: roi) == .rectangle(ControlRectangle(left: 10, top: 20, width: 300, height: 200)))
        #expect(try ControlValueParser.parse("10, 20, 300, 200", for: roi) == .rectangle(ControlRectangle(left: 10, top: 20, width: 300, height: 200)))
        var bytes = [UInt8](repeating: 0, count: 16)
        ControlRectangle(left: -1, top: 2, width: 640, height: 480).write(into: &bytes)
        #expect(ControlRectangle(bytes: bytes) == ControlRectangle(left: -1, top: 2, width: 640, height: 480))
    }

    @Test func valueDescriptionShowsMenuItemsAndBooleans() {
        var exposure = Self.control("Auto Exposure", type: .menu, range: 0...1, menu: ["Auto Mode", "Manual Mode"])
        exposure.value = .integer(1)
        #expect(exposure.valueDescription == "1 (Manual Mode)")
        var focus = Self.control("Focus, Automatic Continuous", type: .boolean, range: 0...1)
        focus.value = .integer(1)
        #expect(focus.valueDescription == "true")
    }
}

/// Mappings of the feature controls that need no device.
@Suite struct ControlsMappingTests {
    static func zoom(_ range: ClosedRange<Int64>, step: UInt64 = 1) -> OpticalZoom {
        OpticalZoom(control: ControlsUnitTests.control("Zoom, Absolute", range: range, step: step))
    }

    @Test func opticalZoomIsTheFocalLengthRatio() {
        let zoom = Self.zoom(100...500)
        #expect(zoom.maximumFactor == 5)
        #expect(zoom.controlValue(for: 1) == 100)
        #expect(zoom.controlValue(for: 2.5) == 250)
        #expect(zoom.controlValue(for: 9) == 500)  // clamped
        #expect(zoom.controlValue(for: 0.5) == 100)
        #expect(zoom.factor(for: 300) == 3)
    }

    @Test func zoomRangeFromZeroMapsOntoTheAssumedMaximum() {
        let zoom = Self.zoom(0...10)
        #expect(zoom.maximumFactor == OpticalZoom.assumedMaximumFactor)
        #expect(zoom.controlValue(for: 1.5) == 5)
        #expect(zoom.factor(for: 10) == 2)
    }

    @Test func regionOfInterestIsCentredAndKeptInside() {
        let full = ControlRectangle(left: 0, top: 0, width: 1920, height: 1080)
        let smallest = ControlRectangle(left: 0, top: 0, width: 1, height: 1)
        let centre = CameraControls.regionOfInterest(around: NormalizedPoint(x: 0.5, y: 0.5), minimum: smallest, maximum: full)
        #expect(centre == ControlRectangle(left: 720, top: 405, width: 480, height: 270))
        let corner = CameraControls.regionOfInterest(around: NormalizedPoint(x: 1, y: 0), minimum: smallest, maximum: full)
        #expect(corner == ControlRectangle(left: 1440, top: 0, width: 480, height: 270))
        let large = CameraControls.regionOfInterest(around: NormalizedPoint(x: 0.3, y: 0.6), minimum: ControlRectangle(left: 0, top: 0, width: 800, height: 600), maximum: full)
        #expect(large == ControlRectangle(left: 176, top: 348, width: 800, height: 600))
    }
}

/// How S_EXT_CTRLS's errno becomes an error, depending on the control's flags.
@Suite struct ControlsErrnoTests {
    static func error(_ code: Int32, flags: ControlFlags = []) -> CameraError {
        let control = ControlsUnitTests.control("Focus, Absolute", range: 0...255, flags: flags)
        return CameraControls.error(for: code, control: control, device: "/dev/video0", asTyped: "300")
    }

    @Test func inactiveOnlyWhenTheDriverRefusesAnInactiveControl() {
        #expect(Self.error(EACCES, flags: .inactive) == .controlInactive(name: "focus_absolute", device: "/dev/video0"))
        #expect(Self.error(EBUSY, flags: .inactive) == .controlInactive(name: "focus_absolute", device: "/dev/video0"))
        #expect(Self.error(EACCES) == .controlReadOnly(name: "focus_absolute", device: "/dev/video0"))
        #expect(Self.error(EBUSY) == .deviceBusy(path: "/dev/video0", holder: nil))
        #expect(Self.error(ERANGE) == .controlOutOfRange(name: "focus_absolute", value: "300", minimum: 0, maximum: 255, step: 1))
        #expect(Self.error(EINVAL) == .controlBadValue(name: "focus_absolute", value: "300", expected: "a value in 0…255"))
        #expect(Self.error(ENODEV) == .deviceGone(path: "/dev/video0"))
        #expect(Self.error(EIO) == .deviceFailure(path: "/dev/video0", operation: "VIDIOC_S_EXT_CTRLS", errno: EIO))
        #expect(CameraError.controlInactive(name: "focus_absolute", device: "/dev/video0").description
            == "focus_absolute on /dev/video0 is inactive right now (another control, such as an automatic mode, overrides it).")
    }
}
