import CGStreamer
import Foundation
import Synchronization
import Testing
@testable import GStreamer
@testable import PipelineFiles
@testable import Session

/// The window shows a live camera's frames as they arrive, not one frame's latency later as a sink synchronised
/// to the clock would (v4l2src reports one frame of latency: 67 ms at 15 fps, 200 ms at 5); a source that is
/// not live is shown at the clock's pace. The window branch is the shipped display.branch, its sink an
/// appsink named `display` like any `${sink}`, keeping only the newest frame.
@Suite(.serialized) struct WindowPacingTests {
    /// Starts `configuration` with a window branch ending in an appsink and returns the session and that sink.
    private func startWithWindow(_ configuration: CameraConfiguration) async throws -> (CameraSession, Element) {
        var configuration = configuration
        configuration.displaySink = "appsink"
        let session = try CameraSession(configuration: configuration)
        let window = Mutex<Element?>(nil)
        session.observeWindowBranch(added: { branch in
            let sink = branch.child(named: "display")
            sink?.set("max-buffers", UInt32(1))
            sink?.set("drop", true)
            window.withLock { $0 = sink }
        }, failed: { _ in })
        try await session.start()
        return (session, try #require(window.withLock { $0 }, "the window branch was not added"))
    }

    /// How long `sink` kept each of `count` frames before they could be taken from it, in ms: from the frame
    /// reaching its pad to the pull that got it, after two older ones are passed over. A sink synchronised to the
    /// clock keeps each for the pipeline's latency less the time the frame took to get there; this is what the
    /// window's sink waits before drawing, whatever timestamps the driver gives (vivid's v4l2src distrusts and
    /// replaces, the virtual camera's it keeps).
    private func holds(of sink: Element, count: Int) throws -> [Double] {
        let arrivals = FrameArrivals()
        let pad = try #require(sink.staticPad("sink"), "the window's sink has no sink pad")
        let probe = pad.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { data in
            if let buffer = data.buffer { arrivals.arrived(gstcam_buffer_pts(buffer)) }
            return GST_PAD_PROBE_OK
        }
        defer { pad.removeProbe(probe) }
        var holds: [Double] = []
        for index in 0..<(count + 2) {
            let pts = try nextFrameTimestamp(of: sink)
            if index >= 2, let arrived = arrivals.time(of: pts) {
                holds.append(Double((ContinuousClock.now - arrived) / .microseconds(1)) / 1000)
            }
        }
        return holds
    }

    private func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    @Test func aLiveTestPatternReachesTheWindowWithoutWaitingAFrame() async throws {
        let (session, sink) = try await startWithWindow(CameraConfiguration(pipeline: "test-pattern", width: 320, height: 240,
                                                                              framerate: 5))
        defer { session.stop() }
        let holds = try holds(of: sink, count: 6)
        #expect(holds.count >= 5, "frames pulled were not seen arriving: \(holds)")
        // Synchronised, the sink would keep each frame about 200 ms (the test pattern's latency: one frame).
        #expect(median(holds) < 40, "the window's sink kept frames \(holds.map { Int($0) }) ms before handing them over")
    }

    /// A bin's liveness is known only once it starts (rtspsrc); the session then lets its frames through the
    /// clocksync in front of the tee unsynchronised (synchronised, it holds each for the source's latency, one frame)
    /// and the window shows them as they arrive. Measured from the frame's timestamp, which the test pattern gives
    /// at its capture time, to the pull at the window's sink: the whole way, the clocksync included.
    @Test func aLiveSourceInABinReachesTheWindowWithoutWaitingAFrame() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try SourcePacingTests.testPattern(in: folder, .bin, live: true)
        let (session, sink) = try await startWithWindow(CameraConfiguration(pipeline: file, width: 320, height: 240, framerate: 5))
        defer { session.stop() }
        let clock = try #require(gst_element_get_clock(sink.pointer), "the window's sink has no clock")
        defer { gst_object_unref(clock) }
        var lags: [Double] = []
        for index in 0..<8 {
            let pts = try nextFrameTimestamp(of: sink)
            let now = gst_clock_get_time(clock)
            if index >= 2 { lags.append(Double(Int64(now) - Int64(gst_element_get_base_time(sink.pointer)) - Int64(pts)) / 1e6) }
        }
        // Held for the latency on the way, each frame would be taken 200 ms after its timestamp or later.
        #expect(median(lags) < 100, "frames reached the window \(lags.map { Int($0) }) ms after their timestamps")
    }

    @Test(arguments: cameras) func aCameraReachesTheWindowWithoutWaitingAFrame(_ camera: String) async throws {
        // A mode vivid has as well, so that the test runs unchanged on the real driver (scripts/test-vivid's guest).
        let (session, sink) = try await startWithWindow(CameraConfiguration(device: camera, width: 640, height: 480,
                                                                              framerate: 15))
        defer { session.stop() }
        let holds = try holds(of: sink, count: 8)
        #expect(holds.count >= 7, "frames pulled were not seen arriving: \(holds)")
        // Synchronised, the sink would keep each frame for v4l2src's latency (one frame, 67 ms) less the time it
        // took to get there: about 60 ms on the virtual camera, 19 ms on vivid in the emulated guest.
        #expect(median(holds) < 13, "the window's sink kept frames \(holds.map { Int($0) }) ms before handing them over")
    }

    @Test func aSourceThatIsNotLiveKeepsTheClocksPaceInTheWindow() async throws {
        let shipped = try PipelineFile.load("test-pattern")
        let text = try String(contentsOfFile: shipped.path, encoding: .utf8)
        #expect(text.contains("is-live=true"))
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/not-live.pipeline"
        try text.replacingOccurrences(of: "is-live=true", with: "is-live=false").write(toFile: file, atomically: true, encoding: .utf8)
        let (session, sink) = try await startWithWindow(CameraConfiguration(pipeline: file, width: 160, height: 120,
                                                                              framerate: 5))
        defer { session.stop() }
        #expect(sink.int("sync") == 1)
        _ = try nextFrameTimestamp(of: sink)  // perhaps the frame the sink prerolled with, kept since the start
        let first = try nextFrameTimestamp(of: sink)
        let started = ContinuousClock.now
        try await Task.sleep(for: .seconds(1))
        let advance = Double(try nextFrameTimestamp(of: sink) - first) / 1e9
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        // Unsynchronised, a test pattern this small would advance by minutes in one second; left to run ahead of
        // a synchronised window, it would show nothing after its first frame.
        #expect(advance < elapsed + 0.5, "the window's frames advanced \(advance) s in \(elapsed) s")
        #expect(advance > elapsed - 0.5, "the window's frames advanced only \(advance) s in \(elapsed) s")
    }

    /// Tests run one at a time (scripts/test), so the busiest test camera is free here. With the virtual cameras
    /// (CI) also their vivid profile, whose timestamps v4l2src replaces as it does vivid's; in the vivid guest,
    /// where there is no virtual camera, vivid itself.
    static let cameras = ProcessInfo.processInfo.environment["VCAM_DEVICES"] == nil ? ["/dev/video0"] : ["/dev/video0", "/dev/video18"]
}

/// When each frame (by timestamp) reached a pad, recorded on the streaming thread.
private final class FrameArrivals: Sendable {
    private let times = Mutex<[GstClockTime: ContinuousClock.Instant]>([:])

    func arrived(_ pts: GstClockTime) {
        let now = ContinuousClock.now
        times.withLock { $0[pts] = now }
    }

    func time(of pts: GstClockTime) -> ContinuousClock.Instant? { times.withLock { $0[pts] } }
}
