import Foundation
import Testing
import CGStreamer
import GStreamer
@testable import PipelineFiles

/// The window converts the camera's frames without interpolating their colour samples (pipelines/display.branch,
/// chroma-mode=none: a quarter of the window's CPU, docs/benchmarks.md). Run through the shipped branch file as
/// GStreamer parses it for the window, fed one hand-made YUYV frame.
@Suite struct WindowConversionTests {
    @Test func bothPixelsOfAPairShowTheColourSampleTheyShare() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // YUYV stores one colour sample (U, V) per two pixels. Every pixel here has the same brightness; the
        // pairs' samples alternate between an orange and a blue, so interpolating between neighbouring samples
        // (GStreamer's default) would give every odd pixel a colour half-way between the two.
        let width = 16, height = 2
        let pairs = (0..<width / 2).flatMap { pair -> [UInt8] in pair % 2 == 0 ? [128, 40, 128, 220] : [128, 220, 128, 40] }
        let input = folder + "/pairs.yuy2"
        try Data(Array(repeating: pairs, count: height).joined()).write(to: URL(fileURLWithPath: input))
        GStreamerRuntime.ensureInitialized()
        let branch = try PipelineFile.load("display.branch").description(with: ["sink": "appsink sync=false"])
        let pipeline = try PipelineParser.parsePipeline("""
            filesrc location=\(input) ! rawvideoparse format=yuy2 width=\(width) height=\(height) framerate=1/1 ! \(branch)
            """, file: "WindowConversionTests")
        defer { _ = pipeline.setState(GST_STATE_NULL) }
        let sink = try #require(pipeline.child(named: "display"))
        _ = pipeline.setState(GST_STATE_PLAYING)
        let window = try nextFrameBytes(of: sink)
        try #require(window.count == width * height * 4, "the window's frame has \(window.count) bytes")
        func colour(_ x: Int, _ y: Int) -> [UInt8] { Array(window[(y * width + x) * 4..<(y * width + x) * 4 + 3]) }
        let orange = colour(0, 0), blue = colour(2, 0)
        #expect(orange[2] > 200 && orange[0] < 40, "pair 0 is orange (BGR \(orange))")
        #expect(blue[0] > 200 && blue[2] < 40, "pair 1 is blue (BGR \(blue))")
        for y in 0..<height {
            for x in 0..<width {
                #expect(colour(x, y) == ((x / 2) % 2 == 0 ? orange : blue), "pixel (\(x), \(y)): BGR \(colour(x, y))")
            }
        }
    }
}
