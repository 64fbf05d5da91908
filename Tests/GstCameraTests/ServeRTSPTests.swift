import CGStreamer
import CRTSPServer
import Foundation
import GStreamer
import Testing
@testable import MediaFiles
@testable import Screen
@testable import Serve
@testable import Session

/// `gstcam serve`'s RTSP side (issue 12), read back by real clients: ffprobe and gst-launch's rtspsrc.
@Suite(.serialized) struct ServeRTSPTests {
    @Test func ffprobeSeesH264AtTheSessionSize() async throws {
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        let server = CameraServer(operator: CameraOperator(session: session),
                                  configuration: ServeConfiguration(rtspPort: 0, httpPort: nil))
        try server.start()
        defer { server.stop() }
        let url = try #require(server.rtspURL)
        #expect(url.hasPrefix("rtsp://127.0.0.1:") && url.hasSuffix("/camera"))
        #expect(try probe(url) == "h264,320,240")
    }

    /// Four viewers at once (TCP and UDP, ffprobe and rtspsrc) each get ≥ 95 % of the frames sent while they
    /// watch; a fifth, killed mid-stream, leaves the server serving; a photo taken meanwhile arrives whole.
    @Test func severalViewersGetNearlyEveryFrameWhileAPhotoIsTaken() async throws {
        let session = try await startTestPattern(width: 320, height: 240, framerate: 30)
        defer { session.stop() }
        let server = CameraServer(operator: CameraOperator(session: session),
                                  configuration: ServeConfiguration(rtspPort: 0, httpPort: nil))
        try server.start()
        defer { server.stop() }
        let url = try #require(server.rtspURL)
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let viewers = [
            ("ffprobe over TCP", try RTSPViewer.ffprobe(url, transport: "tcp", seconds: 4)),
            ("ffprobe over UDP", try RTSPViewer.ffprobe(url, transport: "udp", seconds: 4)),
            ("rtspsrc over TCP", try RTSPViewer.gstLaunch(url, protocol: "tcp", frames: 120)),
            ("rtspsrc over UDP", try RTSPViewer.gstLaunch(url, protocol: "udp", frames: 120)),
        ]
        let killed = try RTSPViewer.gstLaunch(url, protocol: "tcp", frames: nil)
        try await Task.sleep(for: .milliseconds(1500))
        killAndWait(killed.process)
        _ = killed.finish(within: 0)
        let photo = try await session.capturePhoto(to: folder + "/during.jpg")
        let decoded = try decodeImage(photo.path)
        #expect(decoded.width == 320 && decoded.height == 240)

        RTSPViewer.expectEachReceivedTheStream(viewers, minimumFrames: 90, within: 15)
        #expect(try probe(url) == "h264,320,240", "the server still serves after a viewer was killed")
        #expect(session.state == .running)
    }

    /// gst-rtsp-server links a viewer's transport sink into the running shared media only when the tee is next idle,
    /// some time after adding it (the UDP sink behind the TCP one, or the other way round). A sink that had to
    /// preroll made the live pipeline lose PLAYING meanwhile (for good in a stalled run of ServeLoadTests). The
    /// media's sinks join without preroll: a new sink that is not linked yet leaves the pipeline PLAYING.
    @Test func aViewersSinkWaitingToBeLinkedLeavesTheMediaPlaying() throws {
        GStreamerRuntime.ensureInitialized()
        let pipeline = Element(owning: try #require(gst_pipeline_new("media-pipeline")))
        defer { _ = pipeline.setState(GST_STATE_NULL) }
        let media = try PipelineParser.parseBin("videotestsrc is-live=true ! tee name=split ! fakesink", file: "ServeRTSPTests")
        #expect(pipeline.add(media))
        RTSPMount.addSinksWithoutPreroll(toPipelineOf: media.pointer)
        #expect(pipeline.setState(GST_STATE_PLAYING) != .failure)
        #expect(Self.state(of: pipeline) == (GST_STATE_PLAYING, GST_STATE_VOID_PENDING))

        let viewerSink = Element(owning: try #require(gst_element_factory_make("fakesink", "viewer-sink")))
        #expect(pipeline.add(viewerSink) && viewerSink.syncStateWithParent())
        Thread.sleep(forTimeInterval: 0.3)
        #expect(Self.state(of: pipeline) == (GST_STATE_PLAYING, GST_STATE_VOID_PENDING), "the media lost PLAYING")
        #expect(Self.state(of: viewerSink).current == GST_STATE_PLAYING)
    }

    /// Now and then the frame a new RTSP media starts with left its appsrc stamped with the clock's absolute time
    /// (the machine's uptime) instead of a running time; an RTP sink then waited that long before sending anything.
    /// Such a frame is stamped again with the media's running time; a frame stamped with a running time passes as
    /// it is.
    @Test func aFrameStampedWithTheClocksAbsoluteTimeGetsTheRunningTime() throws {
        GStreamerRuntime.ensureInitialized()
        let pipeline = Element(owning: try #require(gst_pipeline_new("media-pipeline")))
        defer { _ = pipeline.setState(GST_STATE_NULL) }
        let media = try PipelineParser.parseBin("appsrc name=network-source is-live=true format=time ! appsink name=sent sync=false async=false",
                                                file: "ServeRTSPTests")
        #expect(pipeline.add(media))
        let source = try #require(media.child(named: "network-source")), sent = try #require(media.child(named: "sent"))
        RTSPMount.configure(appSource: source)
        #expect(pipeline.setState(GST_STATE_PLAYING) != .failure)
        #expect(Self.state(of: pipeline).current == GST_STATE_PLAYING)
        let clock = try #require(gst_element_get_clock(pipeline.pointer))
        defer { gst_object_unref(clock) }

        /// The timestamp `sent` receives for a frame pushed stamped `time`.
        func received(stamped time: GstClockTime) throws -> GstClockTime {
            let buffer = try #require(gst_buffer_new_allocate(nil, 16, nil))
            gstcam_rtsp_stamp_buffer(buffer, time)
            _ = gst_app_src_push_buffer(gstcam_rtsp_as_app_src(source.pointer), buffer)
            let sample = try #require(gst_app_sink_try_pull_sample(gstcam_as_app_sink(sent.pointer), 2_000_000_000))
            defer { gst_sample_unref(sample) }
            return gstcam_buffer_pts(gst_sample_get_buffer(sample))
        }
        let absolute = gst_clock_get_time(clock)
        let restamped = try received(stamped: absolute)
        #expect(restamped < 1_000_000_000, "a frame stamped \(absolute) ns left the appsrc at \(restamped) ns")
        #expect(try received(stamped: 500_000_000) == 500_000_000)
    }

    /// An element's current and pending state, once a state change in progress has ended (2 s at most).
    private static func state(of element: Element) -> (current: GstState, pending: GstState) {
        var current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        _ = gst_element_get_state(element.pointer, &current, &pending, 2_000_000_000)
        return (current, pending)
    }

    /// With credentials (required beyond loopback), a client without them is refused (401) and one with them
    /// plays: RTSP digest authentication, a token being the password of the user "token".
    @Test func credentialsAreRequiredWhenGiven() async throws {
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        let server = CameraServer(operator: CameraOperator(session: session), configuration: ServeConfiguration(
            rtspPort: 0, httpPort: nil, credentials: .token("s3cret")))
        try server.start()
        defer { server.stop() }
        let url = try #require(server.rtspURL)
        #expect(try probe(url).contains("401"), "no credentials")
        #expect(try probe(url.replacingOccurrences(of: "rtsp://", with: "rtsp://token:wrong@")).contains("401"), "a wrong token")
        #expect(try probe(url.replacingOccurrences(of: "rtsp://", with: "rtsp://token:s3cret@")) == "h264,320,240")
    }

    /// Past the viewer limit a new RTSP client is refused with 503, and the web live view too; a viewer that
    /// leaves makes room again.
    @Test func viewersPastTheLimitAreRefusedWith503() async throws {
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        var configuration = ServeConfiguration(rtspPort: 0, httpPort: 0)
        configuration.maxViewers = 1
        let server = CameraServer(operator: CameraOperator(session: session), configuration: configuration)
        try server.start()
        defer { server.stop() }
        let url = try #require(server.rtspURL), web = try #require(server.httpURL)
        let watching = try RTSPViewer.gstLaunch(url, protocol: "tcp", frames: nil)
        try await Task.sleep(for: .seconds(1.5))
        #expect(try probe(url).contains("503"), "a second RTSP viewer is refused")
        let stream = try ClientProcess("/usr/bin/curl", ["-s", "-m", "3", "-o", "/dev/null", web + "stream.mjpg"])
        try await Task.sleep(for: .seconds(0.5))
        let refused = try runProcess("/usr/bin/curl", ["-s", "-m", "3", "-w", "%{http_code}", "-o", "/dev/null", web + "stream.mjpg"],
                                     environment: environmentWithoutCameras)
        #expect(refused.output == "503", "a second live view is refused: \(refused.output)")
        _ = stream.finish(within: 5)
        killAndWait(watching.process)
        _ = watching.finish(within: 0)
        try await Task.sleep(for: .seconds(0.5))
        #expect(try probe(url) == "h264,320,240", "room again once the first viewer left")
    }

    /// The viewer limit counts viewers, not connections: clients that connect and set nothing up (here five, with
    /// room for one viewer) do not lock viewers out.
    @Test func connectionsThatSetNothingUpTakeNoViewersPlace() async throws {
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        var configuration = ServeConfiguration(rtspPort: 0, httpPort: nil)
        configuration.maxViewers = 1
        let server = CameraServer(operator: CameraOperator(session: session), configuration: configuration)
        try server.start()
        defer { server.stop() }
        let url = try #require(server.rtspURL)
        let port = try #require(url.split(separator: ":").last?.split(separator: "/").first)
        let silent = try ClientProcess("/usr/bin/python3", ["-c", """
            import socket, sys, time
            held = [socket.create_connection(("127.0.0.1", \(port))) for _ in range(5)]
            print("connected", flush=True)
            time.sleep(30)
            """])
        defer { _ = silent.finish(within: 0) }
        #expect(silent.waitForOutput("connected", within: 5), "five connections made")
        #expect(try probe(url) == "h264,320,240", "a viewer while five connections say nothing")
        let watching = try RTSPViewer.gstLaunch(url, protocol: "tcp", frames: nil)
        defer { _ = watching.finish(within: 0) }
        try await Task.sleep(for: .seconds(1.5))
        #expect(try probe(url).contains("503"), "the one viewer's place is taken")
        #expect(silent.process.isRunning, "the five connections were held throughout")
    }

    private func probe(_ url: String) throws -> String {
        let result = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-timeout", "10000000", "-rtsp_transport", "tcp",
                                                         "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height",
                                                         "-of", "csv=p=0", url], environment: environmentWithoutCameras)
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines) + result.error
    }
}
