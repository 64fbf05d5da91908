import CGStreamer
import Foundation
import Testing
@testable import CameraErrors
@testable import GStreamer
@testable import Session

/// A camera failing under a running session (issue 10 item 3, issue 16 items 3 and 8), on /dev/video20, which
/// scripts/test gives to these tests alone: unplugged, stalled and made to fail ioctls at will. Each test
/// asserts what a user sees: the session's state and the error's words, in bounded time, and the camera free
/// again afterwards.
@Suite(.serialized) struct SessionFailureTests {
    static let camera = VirtualTestDevice(path: "/dev/video20", card: "Virtual UVC Camera (video20)", identity: (0xe0, 0x1e, 0xc8))
    static var device: String { camera.path }

    /// Injects a fault file (see docs/virtual-camera.md); the device's state folder is made first.
    static func inject(_ name: String, _ content: String = "") throws {
        try FileManager.default.createDirectory(atPath: VirtualCameraFixture.stateDirectory + "/" + camera.name,
                                                withIntermediateDirectories: true)
        try VirtualCameraFixture.inject(name, content, into: camera)
    }

    static func clearFaults() {
        for name in ["unplugged", "disconnected", "stall", "fail-ioctl", "drop"] { VirtualCameraFixture.clear(name, of: camera) }
    }

    static func configuration(stallTimeout: Duration? = .seconds(5)) -> CameraConfiguration {
        var configuration = CameraConfiguration(device: device, width: 320, height: 240)
        configuration.stallTimeout = stallTimeout
        return configuration
    }

    static func started(stallTimeout: Duration? = .seconds(5)) async throws -> CameraSession {
        let session = try CameraSession(configuration: configuration(stallTimeout: stallTimeout))
        try await session.start()
        return session
    }

    /// Waits up to `timeout` seconds for the session to fail; returns the error and how long it took.
    static func failure(of session: CameraSession, within timeout: Double) async -> (error: CameraError, seconds: Double)? {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < .milliseconds(Int(timeout * 1000)) {
            if case .failed(let error) = session.state { return (error, (clock.now - start).inSeconds) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// The camera can be streamed again: no fd, buffer queue or mapping of the failed session holds it.
    static func expectCameraFree() async throws {
        let session = try await started()
        #expect(session.frameCount >= 1)
        session.stop()
    }

    // MARK: Stop during start

    @Test(arguments: [0, 20, 50, 100, 150])
    func stopDuringStartCancelsTheStart(afterMilliseconds delay: Int) async throws {
        Self.clearFaults()
        let session = try CameraSession(configuration: Self.configuration())
        let clock = ContinuousClock()
        let starting = Task { try await session.start() }
        try await Task.sleep(for: .milliseconds(delay))
        let stopped = clock.now
        session.stop()
        let result = await starting.result
        let waited = clock.now - stopped
        // A start that had already finished is simply stopped; one still under way ends with CancellationError.
        if case .failure(let error) = result {
            #expect(error is CancellationError, "start() threw \(error)")
        }
        #expect(waited < .seconds(2), "start() returned \(waited) after stop()")
        #expect(session.state == .stopped)
        try await Self.expectCameraFree()
    }

    @Test func stopWhileWaitingForTheFirstFrameEndsTheStartAtOnce() async throws {
        Self.clearFaults()
        try Self.inject("stall")
        defer { Self.clearFaults() }
        let session = try CameraSession(configuration: Self.configuration())
        let starting = Task { try await session.start() }
        try await Task.sleep(for: .milliseconds(500))
        let clock = ContinuousClock()
        let stopped = clock.now
        session.stop()
        let result = await starting.result
        #expect(clock.now - stopped < .seconds(1), "start() kept waiting for its first frame after stop()")
        guard case .failure(let error) = result else { Issue.record("start() succeeded on a stalled camera"); return }
        #expect(error is CancellationError, "start() threw \(error)")
        #expect(session.state == .stopped)
    }

    // MARK: Failures while running

    @Test func anUnplugFailsTheSessionWithinASecondAndTheCameraWorksWhenBack() async throws {
        Self.clearFaults()
        defer { Self.clearFaults() }
        let session = try await Self.started()
        let events = session.events()
        try Self.inject("unplugged")
        let failure = await Self.failure(of: session, within: 5)
        #expect(failure?.error == .deviceGone(path: Self.device))
        #expect((failure?.seconds ?? 99) < 1, "the session noticed the unplug after \(failure?.seconds ?? 99) s")
        #expect(failure?.error.description == "\(Self.device) was disconnected. Plug the camera back in and start again.")
        #expect(failure?.error.isCameraLost == true)
        session.stop()
        var seen: [CameraEvent] = []
        for await event in events { seen.append(event) }
        #expect(seen.last == .stateChanged(.failed(.deviceGone(path: Self.device))), "\(seen)")
        #expect(session.state == .failed(.deviceGone(path: Self.device)), "stop() keeps the failure visible")
        Self.clearFaults()
        try await Self.expectCameraFree()
    }

    /// vivid's (and the kernel's) disconnect: the node stays, every ioctl gives ENODEV, POLLERR; the device comes
    /// back once the last file handle and buffer mapping of it are gone. So this also checks that a failed session
    /// lets go of all of them.
    @Test func aDisconnectFailsTheSessionAndTheDeviceComesBackOnceReleased() async throws {
        Self.clearFaults()
        defer { Self.clearFaults() }
        let session = try await Self.started()
        try Self.inject("disconnected")
        let failure = await Self.failure(of: session, within: 5)
        #expect(failure?.error == .deviceGone(path: Self.device))
        #expect((failure?.seconds ?? 99) < 1, "the session noticed the disconnect after \(failure?.seconds ?? 99) s")
        session.stop()
        let flag = VirtualCameraFixture.faultFile("disconnected", of: Self.camera)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(3)
        while FileManager.default.fileExists(atPath: flag), clock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(!FileManager.default.fileExists(atPath: flag), "the device stayed disconnected: this process still holds it")
        try await Self.expectCameraFree()
    }

    @Test(arguments: ["ENODEV", "EIO", "ETIMEDOUT"])
    func aFailedDequeueSaysTheCameraStoppedNotThatTheDiskIsFull(_ errno: String) async throws {
        Self.clearFaults()
        defer { Self.clearFaults() }
        let session = try await Self.started()
        try Self.inject("fail-ioctl", "DQBUF \(errno)")
        let failure = await Self.failure(of: session, within: 5)
        let error = try #require(failure?.error)
        #expect(error == .streamingStopped(device: Self.device, reason: "its driver failed to hand over a frame (VIDIOC_DQBUF failed)"))
        #expect(!error.description.contains("No space left"), "\(error)")
        #expect(error.description.hasPrefix("\(Self.device) stopped streaming: "), "\(error)")
        #expect((failure?.seconds ?? 99) < 1)
        session.stop()
        try await Self.expectCameraFree()
    }

    @Test func aStalledCameraWarnsThenFailsAfterTheStallTimeout() async throws {
        Self.clearFaults()
        defer { Self.clearFaults() }
        let session = try await Self.started(stallTimeout: .seconds(3))
        let events = session.events()
        try Self.inject("stall")
        let failure = await Self.failure(of: session, within: 8)
        #expect(failure?.error == .stalled(device: Self.device, seconds: 3))
        #expect((2.5...4.5).contains(failure?.seconds ?? 0), "failed after \(failure?.seconds ?? 0) s")
        #expect(failure?.error.description == "\(Self.device) stopped sending frames for 3 s. Check its cable or connection and start again.")
        session.stop()
        var stalls: [CameraEvent] = []
        for await event in events where event.stallNotice != nil { stalls.append(event) }
        #expect(stalls == [.framesStalled(device: Self.device, seconds: 2)], "\(stalls)")
        #expect(stalls.first?.stallNotice == "No frames from \(Self.device) for 2 s")
        Self.clearFaults()
        try await Self.expectCameraFree()
    }

    @Test func framesComingBackEndTheStallWarning() async throws {
        Self.clearFaults()
        defer { Self.clearFaults() }
        let session = try await Self.started(stallTimeout: nil)
        let events = session.events()
        try Self.inject("stall")
        try await Task.sleep(for: .milliseconds(3500))
        Self.clearFaults()
        try await Task.sleep(for: .seconds(1))
        #expect(session.state == .running)
        session.stop()
        var stalls: [CameraEvent] = []
        for await event in events where event.stallNotice != nil { stalls.append(event) }
        #expect(stalls == [.framesStalled(device: Self.device, seconds: 2), .framesStalled(device: Self.device, seconds: 3),
                           .framesResumed(device: Self.device)], "\(stalls)")
        #expect(stalls.last?.stallNotice == "Frames from \(Self.device) again")
    }

    @Test func aPhotoAfterTheSessionFailedReportsTheFailureItself() async throws {
        Self.clearFaults()
        defer { Self.clearFaults() }
        let session = try await Self.started()
        try Self.inject("unplugged")
        _ = await Self.failure(of: session, within: 5)
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        await #expect(throws: CameraError.deviceGone(path: Self.device)) {
            try await session.capturePhoto(to: folder + "/photo.jpg")
        }
    }

    @Test func stopReturnsInBoundedTimeWhenThePipelineDoesNotLetGo() async throws {
        // The test pattern through an identity that can be told to hold its streaming thread, as a driver stuck in
        // an ioctl would: going to NULL then waits for it.
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/stuck.pipeline"
        try """
        videotestsrc name=source is-live=true ! video/x-raw,width=${width},height=${height},framerate=${framerate}
          ! identity name=stuck ! videocrop name=zoom ! tee name=split
        split. ! queue leaky=downstream max-size-buffers=2 ! videoconvert ! video/x-raw,format=RGB ! appsink name=preview
        """.write(toFile: file, atomically: true, encoding: .utf8)
        var configuration = CameraConfiguration(pipeline: file, width: 160, height: 120)
        configuration.stallTimeout = nil
        let session = try CameraSession(configuration: configuration)
        try await session.start()
        let events = session.events()
        let stuck = try #require(session.shared.withLock { $0.pipeline?.pipeline.child(named: "stuck") })
        stuck.set("sleep-time", UInt32(8_000_000))
        try await Task.sleep(for: .milliseconds(300))
        let clock = ContinuousClock()
        let stopping = clock.now
        session.stop()
        let took = clock.now - stopping
        #expect(took < .seconds(4), "stop() took \(took)")
        #expect(session.state == .stopped)
        var seen: [CameraEvent] = []
        for await event in events { seen.append(event) }
        #expect(seen.contains(.warning("\(file) did not stop within 3 s; it is released when its driver lets go")), "\(seen)")
    }

    // MARK: Mapping GStreamer's words

    static func busError(source: String = "source", code: GstResourceError, message: String, debug: String) -> BusError {
        BusError(source: source, origin: 1, fromDetachedElement: false, scope: nil, domain: "gst-resource-error-quark",
                 code: Int32(code.rawValue), message: message, debug: debug)
    }

    @Test func v4l2srcsWordsAreMappedOnWhatTheDeviceSays() throws {
        Self.clearFaults()
        let dequeue = Self.busError(code: GST_RESOURCE_ERROR_NO_SPACE_LEFT, message: "Failed to allocate a buffer",
                                    debug: "../sys/v4l2/gstv4l2src.c(1374): gst_v4l2src_create (): /GstPipeline:pipeline0/GstV4l2Src:source")
        #expect(CameraError.fromBus(dequeue, device: Self.device)
                == .streamingStopped(device: Self.device, reason: "its driver failed to hand over a frame (VIDIOC_DQBUF failed)"))
        #expect(CameraError.fromBus(dequeue, device: "/dev/video99") == .deviceGone(path: "/dev/video99"))
        // A sink that runs out of space is still a full disk.
        let sink = Self.busError(source: "filesink0", code: GST_RESOURCE_ERROR_NO_SPACE_LEFT, message: "No space left on the resource.",
                                 debug: "gstfilesink.c: Error while writing to file")
        #expect(CameraError.fromBus(sink, device: Self.device) == .writeFailed(path: "filesink0", errno: ENOSPC))
        let pool = Self.busError(code: GST_RESOURCE_ERROR_SETTINGS, message: "Failed to allocate required memory.",
                                 debug: "../sys/v4l2/gstv4l2src.c(976): gst_v4l2src_decide_allocation (): /GstPipeline:pipeline0/GstV4l2Src:source:\nBuffer pool activation failed")
        guard case .streamStartFailed(Self.device, _) = CameraError.fromBus(pool, device: Self.device) else {
            Issue.record("\(CameraError.fromBus(pool, device: Self.device))"); return
        }
        let poll = Self.busError(code: GST_RESOURCE_ERROR_READ, message: "Could not read from resource.",
                                 debug: "../sys/v4l2/gstv4l2bufferpool.c(1198): gst_v4l2_buffer_pool_poll (): /GstPipeline:pipeline0/GstV4l2Src:source:\npoll error 1: No such file or directory (2)")
        #expect(CameraError.fromBus(poll, device: Self.device)
                == .streamingStopped(device: Self.device, reason: "its driver reported the stream as broken (POLLERR)"))
        #expect(CameraError.fromBus(poll, device: "/dev/video99") == .deviceGone(path: "/dev/video99"))
        // A real format problem keeps its words, without a doubled full stop.
        let format = Self.busError(code: GST_RESOURCE_ERROR_SETTINGS, message: "Device '/dev/video20' cannot capture at 99x99.",
                                   debug: "Tried to capture at 99x99, but device returned size 320x240")
        let negotiation = CameraError.fromBus(format, device: Self.device)
        #expect(negotiation == .negotiationFailed(device: Self.device, detail: "Device '/dev/video20' cannot capture at 99x99."))
        #expect(negotiation.description.contains("cannot capture at 99x99. List what"), "\(negotiation)")
    }
}
