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

    /// How long after its timestamp (its running time) each of `count` frames could be taken from `sink`, in ms,
    /// after two older ones are passed over.
    private func lags(of sink: Element, count: Int) throws -> [Double] {
        let clock = try #require(gst_element_get_clock(sink.pointer), "the window's sink has no clock")
        defer { gst_object_unref(clock) }
        var lags: [Double] = []
        for index in 0..<(count + 2) {
            let pts = try nextFrameTimestamp(of: sink)
            let now = gst_clock_get_time(clock)
            if index >= 2 {
                lags.append(Double(Int64(now) - Int64(gst_element_get_base_time(sink.pointer)) - Int64(pts)) / 1e6)
            }
        }
        return lags
    }

    private func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    @Test func aLiveTestPatternReachesTheWindowWithoutWaitingAFrame() async throws {
        let (session, sink) = try await startWithWindow(CameraConfiguration(pipeline: "test-pattern", width: 320, height: 240,
                                                                              framerate: 5))
        defer { session.stop() }
        let lags = try lags(of: sink, count: 6)
        // Held for the latency, each frame would be taken 200 ms after its timestamp or later.
        #expect(median(lags) < 100, "frames reached the window \(lags.map { Int($0) }) ms after their timestamps")
    }

    @Test func aCameraReachesTheWindowWithoutWaitingAFrame() async throws {
        let (session, sink) = try await startWithWindow(CameraConfiguration(device: Self.camera, width: 320, height: 240,
                                                                              framerate: 15))
        defer { session.stop() }
        let lags = try lags(of: sink, count: 8)
        // Held for the latency, each frame would be taken 67 ms after its timestamp or later.
        #expect(median(lags) < 33, "frames reached the window \(lags.map { Int($0) }) ms after their timestamps")
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

    /// Tests run one at a time (scripts/test), so the busiest test camera is free here.
    static let camera = "/dev/video0"
}
