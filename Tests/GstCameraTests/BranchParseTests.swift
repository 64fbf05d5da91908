import CGStreamer
import Testing
@testable import GStreamer

/// `PipelineParser.parseBin(_:file:inputCaps:)`: a branch parsed behind the caps it is expected to be fed (which
/// only makes GStreamer's link checks cheaper) is the same branch as one parsed without them.
@Suite struct BranchParseTests {
    /// A pipeline whose tee carries `format` frames (64x48, three of them), its tee's branches, and those
    /// branches expecting `expected` before the tee has negotiated.
    static func source(_ format: String, expected: String?) throws -> (pipeline: Element, branches: TeeBranches) {
        let pipeline = try PipelineParser.parsePipeline(
            "videotestsrc num-buffers=3 ! video/x-raw,format=\(format),width=64,height=48 ! tee name=split allow-not-linked=true",
            file: "BranchParseTests")
        return (pipeline, TeeBranches(pipeline: pipeline, tee: try #require(pipeline.child(named: "split")), expectedFormat: expected))
    }

    /// The layout of the first frame reaching `bin`'s appsink `out` once `bin` hangs off `branches`' tee (the
    /// pipeline is left playing).
    static func firstFrame(of bin: Element, on pipeline: Element, branches: TeeBranches) throws -> VideoInfo? {
        _ = try branches.attach(bin, input: try #require(bin.staticPad("sink")))
        _ = pipeline.setState(GST_STATE_PLAYING)
        let sink = try #require(bin.child(named: "out"))
        guard let sample = gst_app_sink_try_pull_sample(gstcam_as_app_sink(sink.pointer), 5_000_000_000) else { return nil }
        defer { gst_sample_unref(sample) }
        return gst_sample_get_caps(sample).flatMap(VideoInfo.init(caps:))
    }

    @Test func theBranchTakesAnotherFormatThanTheOneItWasParsedFor() throws {
        GStreamerRuntime.ensureInitialized()
        let (pipeline, branches) = try Self.source("NV12", expected: "YUY2")
        #expect(branches.inputCaps == "video/x-raw,format=YUY2", "before the tee negotiated: the expected format")
        let bin = try PipelineParser.parseBin("queue ! videoconvert ! video/x-raw,format=RGB ! appsink name=out sync=false",
                                              file: "BranchParseTests", inputCaps: "video/x-raw,format=YUY2")
        #expect(bin.child(named: PipelineParser.parseInputName) == nil, "the capsfilter it was parsed behind is gone")
        defer { _ = pipeline.setState(GST_STATE_NULL) }
        let frame = try Self.firstFrame(of: bin, on: pipeline, branches: branches)
        #expect(frame?.format == .rgb && frame?.width == 64 && frame?.height == 48,
                "\(String(describing: frame)): NV12 frames did not pass the branch parsed for YUY2")
    }

    @Test func theTeeNamesTheFormatItNegotiated() throws {
        GStreamerRuntime.ensureInitialized()
        let (pipeline, branches) = try Self.source("NV12", expected: "YUY2")
        let bin = try PipelineParser.parseBin("queue ! appsink name=out sync=false", file: "BranchParseTests")
        defer { _ = pipeline.setState(GST_STATE_NULL) }
        #expect(try Self.firstFrame(of: bin, on: pipeline, branches: branches) != nil)
        #expect(branches.inputCaps == "video/x-raw,format=NV12")
    }

    @Test func aBranchThatRefusesTheParseCapsIsParsedWithoutThem() throws {
        GStreamerRuntime.ensureInitialized()
        let (pipeline, branches) = try Self.source("NV12", expected: "YUY2")
        // Linking queue to a NV12-only filter fails behind YUY2 caps: parsed again without them, it takes NV12.
        let bin = try PipelineParser.parseBin("queue ! video/x-raw,format=NV12 ! appsink name=out sync=false",
                                              file: "BranchParseTests", inputCaps: "video/x-raw,format=YUY2")
        defer { _ = pipeline.setState(GST_STATE_NULL) }
        let frame = try Self.firstFrame(of: bin, on: pipeline, branches: branches)
        #expect(frame?.format == VideoFormat(rawValue: "NV12"), "\(String(describing: frame))")
    }
}
