import Foundation
import Testing
@testable import Cameras
@testable import Controls
@testable import Session
@testable import V4L2

/// The mode rule (docs/modes.md) as pure functions over real drivers' mode tables.
@Suite struct ModeChoiceTests {
    static func rate(_ text: String) -> FrameRate { FrameRate(text)! }

    static func format(_ fourcc: String, compressed: Bool = false, _ sizes: [(Int, Int, [String])]) -> CameraFormat {
        CameraFormat(pixelFormat: PixelFormat(fourcc: fourcc)!, description: fourcc, isCompressed: compressed,
                     sizes: sizes.map { CameraFrameSize(width: $0.0, height: $0.1, frameRates: $0.2.map(rate)) })
    }

    static func camera(_ formats: [CameraFormat]) -> Camera {
        Camera(index: 0, path: "/dev/video9", name: "test", driver: "test", busInfo: "", nodes: [], isInfrared: false,
               formats: formats, features: ControlSummary(), problem: nil)
    }

    /// A typical USB 2 webcam: raw is bandwidth-bound above 640x480, Motion-JPEG gives 30 fps everywhere.
    static let webcam = camera([
        format("YUYV", [(640, 480, ["30", "15"]), (1280, 720, ["10", "5"]), (1920, 1080, ["5"])]),
        format("MJPG", compressed: true, [(640, 480, ["30", "15"]), (1280, 720, ["30", "15"]), (1920, 1080, ["30", "15"])]),
    ])

    /// The same webcam without Motion-JPEG.
    static let rawWebcam = camera([webcam.formats[0]])

    /// vivid's webcam input (kernel 6.1): rates per size, 12.5 fps as 2/25 s, formats it cannot all deliver.
    static let vivid: Camera = {
        let all = ["60", "50", "40", "30", "25", "15", "25/2", "10", "5", "4", "2", "1"]
        let table: [(Int, Int, [String])] = [(320, 180, all), (640, 360, Array(all.dropFirst(2))), (640, 480, Array(all.dropFirst(4))),
                                              (1280, 720, Array(all.dropFirst(6))), (1920, 1080, Array(all.dropFirst(8))),
                                              (3840, 2160, Array(all.dropFirst(10)))]
        return camera(["YUYV", "NV12", "HSV3", "BA81", "BG10", "GREY"].map { format($0, table) })
    }()

    func choose(_ camera: Camera, _ purpose: ModePurpose, width: Int? = nil, height: Int? = nil, fps: String? = nil) -> CameraMode? {
        ModeChooser.choose(ModeRequest(width: width, height: height, frameRate: fps.map(Self.rate), purpose: purpose), from: camera.modes)
    }

    func mode(_ fourcc: String, _ width: Int, _ height: Int, _ fps: String, _ kind: SourceKind) -> CameraMode {
        CameraMode(pixelFormat: PixelFormat(fourcc: fourcc)!, width: width, height: height, frameRate: Self.rate(fps), kind: kind)
    }

    @Test func aPhotoGetsTheLargestSizeThroughMotionJPEGWhereRawIsSlow() {
        #expect(choose(Self.webcam, .photo) == mode("MJPG", 1920, 1080, "30", .motionJPEG))
        #expect(choose(Self.rawWebcam, .photo) == mode("YUYV", 1920, 1080, "5", .raw))
        // vivid's largest size runs at 2 fps at best: still the photo's size.
        #expect(choose(Self.vivid, .photo) == mode("YUYV", 3840, 2160, "2", .raw))
    }

    @Test func aPhotoTakesRawWhenItIsFastEnough() {
        let both = Self.camera([Self.format("MJPG", compressed: true, [(1920, 1080, ["30"])]), Self.format("YUYV", [(1920, 1080, ["15"])])])
        #expect(choose(both, .photo) == mode("YUYV", 1920, 1080, "15", .raw))
    }

    @Test func aPhotoSkipsSizesSlowerThanOneFrameASecondUnlessThatIsAll() {
        let slow = Self.camera([Self.format("YUYV", [(640, 480, ["30"]), (4000, 3000, ["1/2"])])])
        #expect(choose(slow, .photo) == mode("YUYV", 640, 480, "30", .raw))
        let onlySlow = Self.camera([Self.format("YUYV", [(4000, 3000, ["1/2"])])])
        #expect(choose(onlySlow, .photo) == mode("YUYV", 4000, 3000, "1/2", .raw))
    }

    @Test func thePreviewPrefersFifteenFramesASecondThenSize() {
        // Motion-JPEG gives 1080p at 30 fps: that beats raw 640x480 at 30.
        #expect(choose(Self.webcam, .preview) == mode("MJPG", 1920, 1080, "30", .motionJPEG))
        // Raw only: 1280x720 at 10 fps is too slow; 640x480 at 30 wins.
        #expect(choose(Self.rawWebcam, .preview) == mode("YUYV", 640, 480, "30", .raw))
        // vivid: 640x480 runs at 25 at most, larger sizes at 12.5 or less; rates above 30 are not taken.
        #expect(choose(Self.vivid, .preview) == mode("YUYV", 640, 480, "25", .raw))
    }

    @Test func thePreviewStaysWithinFullHD() {
        let big = Self.camera([Self.format("MJPG", compressed: true, [(1280, 720, ["30"]), (1920, 1080, ["30"]), (3840, 2160, ["30"])])])
        #expect(choose(big, .preview) == mode("MJPG", 1920, 1080, "30", .motionJPEG))
        let onlyHuge = Self.camera([Self.format("YUYV", [(4096, 3072, ["15"]), (3840, 2160, ["15"])])])
        #expect(choose(onlyHuge, .preview) == mode("YUYV", 3840, 2160, "15", .raw))
    }

    @Test func askedSizesAndRatesGetTheNearestMode() {
        #expect(choose(Self.vivid, .preview, width: 1280, height: 720, fps: "12.5") == mode("YUYV", 1280, 720, "25/2", .raw))
        // No 30 fps at 1280x720 on the raw webcam: the nearest rate there.
        #expect(choose(Self.rawWebcam, .preview, width: 1280, height: 720, fps: "30") == mode("YUYV", 1280, 720, "10", .raw))
        // With Motion-JPEG the size and rate exist.
        #expect(choose(Self.webcam, .preview, width: 1280, height: 720, fps: "30") == mode("MJPG", 1280, 720, "30", .motionJPEG))
        // A size the camera lacks: the smallest of the same shape that covers it.
        #expect(choose(Self.vivid, .preview, width: 800, height: 450)?.width == 1280)
        // A size larger than any: the largest.
        #expect(choose(Self.webcam, .photo, width: 8000, height: 6000)?.width == 1920)
        // Only a rate: the purpose's choice among the modes that have it.
        #expect(choose(Self.vivid, .preview, fps: "12.5") == mode("YUYV", 1280, 720, "25/2", .raw))
        // 29.97 is not offered by vivid: the preview's size at the nearest rate.
        #expect(choose(Self.vivid, .preview, fps: "30000/1001") == mode("YUYV", 640, 480, "25", .raw))
        // Only a width: the sizes with it, the purpose deciding between them.
        #expect(choose(Self.vivid, .photo, width: 640) == mode("YUYV", 640, 480, "25", .raw))
    }

    @Test func theRequestSaysWhetherTheModeIsWhatWasAsked() {
        let asked = ModeRequest(width: 1280, height: 720, frameRate: 30, purpose: .preview)
        #expect(asked.description == "1280x720 at 30 fps")
        #expect(!asked.isMet(by: mode("YUYV", 1280, 720, "10", .raw)))
        #expect(asked.isMet(by: mode("MJPG", 1280, 720, "30", .motionJPEG)))
        #expect(ModeRequest(frameRate: Self.rate("25/2"), purpose: .photo).description == "12.5 fps")
    }

    @Test func formatsAreTakenRawMotionJPEGOrBayerOrSkippedWithAReason() {
        let kinds = Dictionary(uniqueKeysWithValues: Self.vivid.formats.map { ($0.pixelFormat.description, $0.support) })
        #expect(kinds["YUYV"] == .usable(.raw))
        #expect(kinds["GREY"] == .usable(.raw))
        #expect(kinds["BA81"] == .usable(.bayer))
        #expect(kinds["HSV3"]?.skipReason == "GStreamer's v4l2src has no caps for HSV3")
        #expect(kinds["BG10"]?.skipReason?.contains("10/12/16-bit Bayer") == true)
        #expect(PixelFormat.mjpeg.support == .usable(.motionJPEG))
        #expect(PixelFormat.h264.support.skipReason == "compressed video (H264) that gstcam does not decode")
        // Skipped formats give no modes; greyscale is never chosen over colour.
        #expect(!Self.vivid.modes.contains { $0.pixelFormat.description == "HSV3" })
        #expect(choose(Self.camera([Self.format("GREY", [(1920, 1080, ["30"])]), Self.format("YUYV", [(640, 480, ["30"])])]), .photo)?.width == 640)
        #expect(choose(Self.camera([Self.format("GREY", [(640, 400, ["30"])])]), .photo) == mode("GREY", 640, 400, "30", .raw))
    }

    @Test func devicesJSONSaysWhichPipelineTakesAFormatOrWhyItIsSkipped() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(Self.vivid.formats), as: UTF8.self)
        let formats = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        let byFourcc = Dictionary(uniqueKeysWithValues: formats.map { ($0["fourcc"] as? String ?? "?", $0) })
        #expect(byFourcc["YUYV"]?["pipeline"] as? String == "default" && byFourcc["YUYV"]?["skipped"] is NSNull)
        #expect(byFourcc["BA81"]?["pipeline"] as? String == "bayer")
        #expect(byFourcc["HSV3"]?["pipeline"] is NSNull)
        #expect(byFourcc["HSV3"]?["skipped"] as? String == "GStreamer's v4l2src has no caps for HSV3")
        let sizes = try #require(byFourcc["YUYV"]?["sizes"] as? [[String: Any]])
        let hd = try #require(sizes.first { $0["width"] as? Int == 1280 })
        #expect(hd["rates"] as? [String] == ["25/2", "10/1", "5/1", "4/1", "2/1", "1/1"])
        #expect(hd["fps"] as? [Double] == [12.5, 10, 5, 4, 2, 1])
        #expect(hd["rateRange"] is NSNull)
    }

    @Test func bayerIsTheLastChoiceAmongEqualModes() {
        let sensor = Self.camera([Self.format("BA81", [(1920, 1080, ["30"])]), Self.format("YUYV", [(1920, 1080, ["30"])])])
        #expect(choose(sensor, .photo)?.kind == .raw)
        #expect(choose(Self.camera([Self.format("RGGB", [(1920, 1080, ["30"])])]), .preview)?.kind == .bayer)
    }

    @Test func stepwiseSizesAndRatesOfferTheirEndsAndCommonValues() {
        let range = CameraFrameSize.SizeRange(minWidth: 64, maxWidth: 2560, widthStep: 16, minHeight: 64, maxHeight: 1920, heightStep: 8)
        let size = CameraFrameSize(width: 2560, height: 1920, frameRates: [Self.rate("60"), Self.rate("1")], range: range,
                                   rateRange: Self.rate("1")...Self.rate("60"))
        let camera = Self.camera([CameraFormat(pixelFormat: .yuyv, description: "YUYV", isCompressed: false, sizes: [size])])
        let sizes = Set(camera.modes.map { "\($0.width)x\($0.height)" })
        #expect(sizes.isSuperset(of: ["2560x1920", "64x64", "640x480", "1280x720", "1920x1080"]))
        #expect(!sizes.contains("3840x2160"))
        let rates = Set(camera.modes.map(\.frameRate))
        #expect(rates.isSuperset(of: [Self.rate("60"), 30, Self.rate("30000/1001"), Self.rate("12.5"), 1]))
        #expect(choose(camera, .preview) == mode("YUYV", 1920, 1080, "30", .raw))
        #expect(choose(camera, .preview, width: 1280, height: 720, fps: "29.97") == mode("YUYV", 1280, 720, "30000/1001", .raw))
    }
}

@Suite struct ModeTimeoutTests {
    @Test func largeAndSlowModesGetLongerWaits() {
        #expect(CameraConfiguration(width: 640, height: 480, framerate: 30).photoTimeout == .milliseconds(5100))
        let uhd = CameraConfiguration(width: 3840, height: 2160, framerate: 2)
        #expect(uhd.photoTimeout == .milliseconds(21_500))
        let mode = CameraMode(pixelFormat: .yuyv, width: 3840, height: 2160, frameRate: 2, kind: .raw)
        #expect(CameraConfiguration().startTimeout(scaledFor: mode) == .milliseconds(41_500))
        let small = CameraMode(pixelFormat: .yuyv, width: 640, height: 480, frameRate: 30, kind: .raw)
        #expect(CameraConfiguration(startTimeout: .seconds(20)).startTimeout(scaledFor: small) == .milliseconds(20_100))
    }
}

@Suite struct FrameRateTests {
    @Test(arguments: [("30", 30, 1, "30"), ("12.5", 25, 2, "12.5"), ("30000/1001", 30000, 1001, "29.97"),
                      ("15/2", 15, 2, "7.5"), ("29.97", 2997, 100, "29.97"), ("60/2", 30, 1, "30"), ("0.5", 1, 2, "0.5")])
    func parsesAndPrints(_ text: String, _ numerator: Int, _ denominator: Int, _ printed: String) throws {
        let rate = try #require(FrameRate(text))
        #expect(rate.numerator == numerator && rate.denominator == denominator)
        #expect(rate.description == printed)
        #expect(rate.fraction == "\(numerator)/\(denominator)")
    }

    @Test(arguments: ["", "0", "-5", "abc", "30/0", "1/", "/2", "1e3", "2000", "12.5.1", "1.2345", " 30"])
    func refusesWhatIsNotARate(_ text: String) {
        #expect(FrameRate(text) == nil)
    }

    @Test func comparesExactly() {
        #expect(FrameRate("30000/1001")! < 30)
        #expect(FrameRate("12.5")! == FrameRate("25/2")!)
        #expect(FrameRate(numerator: 50, denominator: 4) == FrameRate("12.5"))
        #expect(FrameRate("15/2")!.value == 7.5)
    }
}
