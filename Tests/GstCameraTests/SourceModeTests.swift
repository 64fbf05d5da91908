import Testing
@testable import GstCamera

@Suite struct SourceModeTests {
    private func format(_ fourcc: String, compressed: Bool = false, _ sizes: [(Int, Int, [Double])]) -> CameraFormat {
        CameraFormat(pixelFormat: PixelFormat(fourcc: fourcc)!, description: fourcc, isCompressed: compressed,
                     sizes: sizes.map { CameraFrameSize(width: $0.0, height: $0.1, framesPerSecond: $0.2, range: nil) })
    }

    private let wanted = SourceMode(width: 640, height: 480, framerate: 30)

    @Test func theWantedModeWinsWhenOffered() {
        let formats = [format("YUYV", [(1280, 720, [10]), (640, 480, [30, 15])])]
        #expect(SourceMode.closest(to: wanted, in: formats, compressed: false) == wanted)
    }

    @Test func otherwiseTheSmallestCoveringSizeOfTheSameShape() {
        let formats = [format("YUYV", [(320, 240, [30]), (1280, 720, [30]), (1600, 1200, [15]), (2592, 1944, [5])])]
        #expect(SourceMode.closest(to: wanted, in: formats, compressed: false) == SourceMode(width: 1600, height: 1200, framerate: 15))
    }

    @Test func otherwiseAnyCoveringSizeAndTheFastestRateBelowTheWantedOne() {
        let formats = [format("NV12", [(320, 180, [60]), (1280, 720, [60, 25, 10])])]
        #expect(SourceMode.closest(to: wanted, in: formats, compressed: false) == SourceMode(width: 1280, height: 720, framerate: 25))
    }

    @Test func theLargestWhenNothingCovers() {
        let formats = [format("YUYV", [(160, 120, [30]), (320, 240, [30])])]
        #expect(SourceMode.closest(to: wanted, in: formats, compressed: false) == SourceMode(width: 320, height: 240, framerate: 30))
    }

    @Test func theLargestSizeOfTheKindAtTheWantedRateOrTheNearestSlower() {
        let formats = [format("YUYV", [(640, 480, [30]), (1920, 1080, [5])]), format("MJPG", compressed: true, [(3840, 2160, [30])])]
        #expect(SourceMode.largest(in: formats, compressed: false, framerate: 30) == SourceMode(width: 1920, height: 1080, framerate: 5))
        #expect(SourceMode.largest(in: formats, compressed: true, framerate: 30) == SourceMode(width: 3840, height: 2160, framerate: 30))
        #expect(SourceMode.largest(in: [], compressed: false, framerate: 30) == nil)
    }

    @Test func compressedAndRawAreKeptApart() {
        let formats = [format("MJPG", compressed: true, [(1920, 1080, [30])]), format("YUYV", [(640, 480, [30])])]
        #expect(SourceMode.closest(to: wanted, in: formats, compressed: true) == SourceMode(width: 1920, height: 1080, framerate: 30))
        #expect(SourceMode.closest(to: wanted, in: [format("MJPG", compressed: true, [(640, 480, [30])])], compressed: false) == nil)
        #expect(SourceMode(width: 1920, height: 1080, framerate: 30).caps(compressed: true) == "image/jpeg,width=1920,height=1080,framerate=30/1")
    }
}
