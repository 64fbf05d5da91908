// The virtual camera at the ioctl level, in this process (which runs with libVirtualCamera.so
// preloaded by scripts/test), on the device reserved for these tests. Serialized: they share it.
import CGStreamer
import Foundation
import Glibc
import Testing
@testable import Controls

extension FaultDeviceTests {
    @Suite(.serialized) struct VirtualCameraDeviceTests {
        let device = VirtualCameraFixture.faultDevice

        @Test func framesCarryIncreasingSequenceStampsAndMonotonicTimestamps() throws {
            let client = try V4L2TestClient(device.path)
            try client.setFormat(width: 320, height: 240)
            try client.startStreaming()
            defer { try? client.stopStreaming() }
            var frames: [CapturedFrame] = []
            for _ in 0..<6 { frames.append(try client.nextFrame()) }
            let now = monotonicNanoseconds()
            for (index, frame) in frames.enumerated() {
                let reader = VirtualFrameReader(bytes: frame.bytes, width: 320, height: 240, layout: .yuyv)
                #expect(reader.stamp == frame.sequence, "pixels say \(reader.stamp), buffer says \(frame.sequence)")
                #expect(frame.timestampNanoseconds <= now, "timestamp in the future")
                if index > 0 {
                    #expect(frame.sequence == frames[index - 1].sequence + 1)
                    #expect(frame.timestampNanoseconds > frames[index - 1].timestampNanoseconds)
                }
            }
            // Paced at 30 fps: five intervals take about 167 ms.
            let span = Double(frames[5].timestampNanoseconds - frames[0].timestampNanoseconds) / 1e6
            #expect(span > 120 && span < 300, "5 frame intervals took \(span) ms")
            let first = VirtualFrameReader(bytes: frames[0].bytes, width: 320, height: 240, layout: .yuyv)
            let identity = first.identity
            #expect(abs(identity.red - 0xe6) + abs(identity.green - 0xc8) + abs(identity.blue - 0x1e) < 40, "band \(identity)")
            #expect(frames[0].bytes != frames[1].bytes, "consecutive frames are identical: nothing moves")
        }

        @Test func zoomMagnifiesTheScene() throws {
            let client = try V4L2TestClient(device.path)
            defer { try? client.setControl(ControlID.zoomAbsolute, 100) }
            try client.setControl(ControlID.zoomAbsolute, 100)
            let wide = try sceneFrame(client)
            try client.setControl(ControlID.zoomAbsolute, 300)
            let zoomed = try sceneFrame(client)
            #expect(wide.checkerEdgesAlongRow >= 6, "zoom 100 shows \(wide.checkerEdgesAlongRow) checker edges")
            #expect(zoomed.checkerEdgesAlongRow * 2 < wide.checkerEdgesAlongRow,
                    "zoom 300 shows \(zoomed.checkerEdgesAlongRow) edges, zoom 100 \(wide.checkerEdgesAlongRow)")
        }

        @Test func torchBrightensTheScene() throws {
            let client = try V4L2TestClient(device.path)
            defer { try? client.setControl(ControlID.flashLEDMode, 0) }
            try client.setControl(ControlID.flashLEDMode, 0)
            let dark = try sceneFrame(client).meanSceneLuma
            try client.setControl(ControlID.flashTorchIntensity, 100)
            try client.setControl(ControlID.flashLEDMode, 2)
            let lit = try sceneFrame(client).meanSceneLuma
            #expect(lit > dark + 30, "torch on: mean luma \(lit), off: \(dark)")
        }

        @Test func unfocusedLensBlurs() throws {
            let client = try V4L2TestClient(device.path)
            defer {
                try? client.setControl(ControlID.focusAbsolute, 100)
                try? client.setControl(ControlID.focusAuto, 1)
            }
            try client.setControl(ControlID.focusAuto, 1)
            let sharp = try sceneFrame(client).sceneSharpness
            try client.setControl(ControlID.focusAuto, 0)
            try client.setControl(ControlID.focusAbsolute, 0)
            let blurred = try sceneFrame(client).sceneSharpness
            #expect(blurred * 2 < sharp * 1, "sharpness focused \(sharp), unfocused \(blurred)")
            try client.setControl(ControlID.focusAbsolute, 100)
            let refocused = try sceneFrame(client).sceneSharpness
            #expect(refocused * 10 > sharp * 9, "back in focus: \(refocused) vs \(sharp)")
        }

        @Test func controlSetHereIsReadByAnotherProcess() throws {
            let client = try V4L2TestClient(device.path)
            defer {
                try? client.setControl(ControlID.zoomAbsolute, 100)
                try? client.setControl(ControlID.brightness, 0)
            }
            try client.setControl(ControlID.zoomAbsolute, 321)
            let read = try runTool("v4l2-ctl", ["-d", device.path, "-C", "zoom_absolute"])
            #expect(read.status == 0, "\(read.combined)")
            #expect(read.output.contains("zoom_absolute: 321"), "v4l2-ctl printed: \(read.combined)")
            let write = try runTool("v4l2-ctl", ["-d", device.path, "-c", "brightness=17"])
            #expect(write.status == 0, "\(write.combined)")
            #expect(try client.control(ControlID.brightness) == 17)
        }

        @Test func formatSetByAnotherProcessIsTheDeviceFormat() throws {
            let client = try V4L2TestClient(device.path)
            defer { try? client.setFormat(width: 640, height: 480) }
            let set = try runTool("v4l2-ctl", ["-d", device.path, "--set-fmt-video=width=1280,height=720,pixelformat=NV12"])
            #expect(set.status == 0, "\(set.combined)")
            var format = v4l2_format()
            format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            try client.check("VIDIOC_G_FMT", gstcam_vidioc_g_fmt(), &format)
            #expect(format.fmt.pix.width == 1280 && format.fmt.pix.height == 720)
            #expect(format.fmt.pix.pixelformat == gstcam_fourcc_nv12())
        }

        @Test func controlChangedByAnotherProcessArrivesAsAnEvent() throws {
            let client = try V4L2TestClient(device.path)
            defer { try? client.setControl(ControlID.zoomAbsolute, 100) }
            var subscription = v4l2_event_subscription()
            subscription.type = UInt32(V4L2_EVENT_CTRL)
            subscription.id = ControlID.zoomAbsolute
            try client.check("VIDIOC_SUBSCRIBE_EVENT", gstcam_vidioc_subscribe_event(), &subscription)
            let write = try runTool("v4l2-ctl", ["-d", device.path, "-c", "zoom_absolute=222"])
            #expect(write.status == 0, "\(write.combined)")
            var pfd = pollfd(fd: client.fd, events: Int16(POLLPRI), revents: 0)
            #expect(poll(&pfd, 1, 2000) == 1 && pfd.revents & Int16(POLLPRI) != 0, "no POLLPRI for the change")
            var event = v4l2_event()
            try client.check("VIDIOC_DQEVENT", gstcam_vidioc_dqevent(), &event)
            #expect(event.type == UInt32(V4L2_EVENT_CTRL) && event.id == ControlID.zoomAbsolute)
            #expect(event.u.ctrl.value == 222)
            #expect(event.u.ctrl.changes & UInt32(V4L2_EVENT_CTRL_CH_VALUE) != 0)
        }

        @Test func secondStreamerGetsEBUSY() throws {
            let owner = try V4L2TestClient(device.path)
            try owner.setFormat(width: 320, height: 240)
            try owner.startStreaming()
            defer { try? owner.stopStreaming() }
            _ = try owner.nextFrame()
            let second = try V4L2TestClient(device.path)
            #expect(second.requestBuffers(2) == EBUSY)
            #expect(second.queryCapabilityErrno() == 0, "a second open may still query the device")
            let other = try runTool("gst-launch-1.0", ["v4l2src", "device=\(device.path)", "num-buffers=5", "!", "fakesink"])
            #expect(other.status != 0)
            #expect(other.combined.contains("busy"), "gst-launch said: \(other.combined)")
            _ = try owner.nextFrame()
        }

        @Test func unplugReportsPollErrorENODEVAndRemovesTheNode() throws {
            let client = try V4L2TestClient(device.path)
            try client.setFormat(width: 320, height: 240)
            try client.startStreaming()
            _ = try client.nextFrame()
            defer { VirtualCameraFixture.clear("unplugged", of: device) }
            try VirtualCameraFixture.inject("unplugged", into: device)

            // A poll already waiting is woken with POLLERR|POLLHUP, as v4l2 reports an unregistered node.
            let revents = FaultDeviceTests.waitForPollError(client)
            #expect(revents & Int16(POLLERR) != 0 && revents & Int16(POLLHUP) != 0, "poll revents \(revents)")
            #expect(client.queryCapabilityErrno() == ENODEV)
            var st = stat()
            #expect(stat(device.path, &st) == -1 && errno == ENOENT, "the node should be gone from stat")
            #expect(open(device.path, O_RDWR) == -1 && errno == ENOENT)
            let listing = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
            #expect(!listing.contains(device.name), "an unplugged device is still listed in /dev")

            VirtualCameraFixture.clear("unplugged", of: device)
            #expect(stat(device.path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR, "replugged node should stat as a character device")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).contains(device.name),
                    "a replugged device is listed in /dev again")
            #expect(client.queryCapabilityErrno() == ENODEV, "a file handle from before the unplug stays dead")
            let fresh = try V4L2TestClient(device.path)
            #expect(fresh.queryCapabilityErrno() == 0)
            try fresh.setFormat(width: 320, height: 240)
            try fresh.startStreaming()
            _ = try fresh.nextFrame()
            try fresh.stopStreaming()
        }

        @Test func deniedOpenFailsWithEACCES() throws {
            defer { VirtualCameraFixture.clear("deny", of: device) }
            try VirtualCameraFixture.inject("deny", into: device)
            #expect(open(device.path, O_RDWR) == -1 && errno == EACCES)
            var st = stat()
            #expect(stat(device.path, &st) == 0, "a denied node still exists")
            VirtualCameraFixture.clear("deny", of: device)
            let fd = open(device.path, O_RDWR)
            #expect(fd >= 0)
            close(fd)
        }

        @Test func injectedIoctlFailureHitsOnlyTheNextMatchingCall() throws {
            let client = try V4L2TestClient(device.path)
            defer { VirtualCameraFixture.clear("fail-ioctl", of: device) }
            try VirtualCameraFixture.inject("fail-ioctl", "VIDIOC_QUERYCAP EIO\n", into: device)
            _ = try client.control(ControlID.brightness)   // other ioctls do not use up the failure
            #expect(client.queryCapabilityErrno() == EIO)
            #expect(client.queryCapabilityErrno() == 0)
            #expect(!FileManager.default.fileExists(atPath: VirtualCameraFixture.faultFile("fail-ioctl", of: device)))

            try VirtualCameraFixture.inject("fail-ioctl", "S_CTRL EBUSY", into: device)
            var control = v4l2_control(id: ControlID.zoomAbsolute, value: 150)
            #expect(client.ioctlErrno(gstcam_vidioc_s_ctrl(), &control) == EBUSY)
            #expect(try client.control(ControlID.zoomAbsolute) == 100, "the failed S_CTRL must not apply")
        }

        @Test func stalledDeviceDeliversNoFramesUntilResumed() throws {
            let client = try V4L2TestClient(device.path)
            try client.setFormat(width: 320, height: 240)
            try client.startStreaming(buffers: 2)
            defer { try? client.stopStreaming() }
            _ = try client.nextFrame()
            defer { VirtualCameraFixture.clear("stall", of: device) }
            try VirtualCameraFixture.inject("stall", into: device)
            // At most the two buffers already in flight arrive; then nothing.
            var stalled = false
            for _ in 0..<4 {
                do { _ = try client.nextFrame(timeout: 400) } catch VirtualCameraTestError.timeout { stalled = true; break }
            }
            #expect(stalled, "frames kept coming while stalled")
            VirtualCameraFixture.clear("stall", of: device)
            _ = try client.nextFrame(timeout: 1000)
        }

        @Test func droppedFramesLeaveSequenceGaps() throws {
            let client = try V4L2TestClient(device.path)
            try client.setFormat(width: 320, height: 240)
            defer { VirtualCameraFixture.clear("drop", of: device) }
            try VirtualCameraFixture.inject("drop", "50\n", into: device)
            try client.startStreaming()
            defer { try? client.stopStreaming() }
            var sequences: [UInt32] = []
            for _ in 0..<12 { sequences.append(try client.nextFrame().sequence) }
            let span = Int(sequences.last! - sequences.first!) + 1
            #expect(span > sequences.count + 2, "12 frames spanned \(span) sequence numbers with 50% dropped")
            for frame in 1..<sequences.count { #expect(sequences[frame] > sequences[frame - 1]) }
        }

        /// A frame that finds no queued buffer is lost, and its sequence number with it, so the sequence keeps
        /// counting frame intervals. vivid does so (v4l2-ctl with 3 buffers and a 1 s sleep went from seq 12 to
        /// 15), and uvcvideo says why: "discontinuous sequence numbers always indicate lost frames".
        @Test func framesLostForWantOfABufferLeaveSequenceGaps() throws {
            let client = try V4L2TestClient(device.path)
            try client.setFormat(width: 320, height: 240)
            try client.startStreaming(buffers: 2)
            defer { try? client.stopStreaming() }
            let first = try client.nextFrame()
            Thread.sleep(forTimeInterval: 0.6)   // both buffers fill at once, then about 16 frames find none
            let frames = try (0..<3).map { _ in try client.nextFrame() }
            let last = frames[2]
            let intervals = Double(last.timestampNanoseconds - first.timestampNanoseconds) / 1e9 * 30
            let counted = Int(last.sequence - first.sequence)
            #expect(counted > 12, "sequence went from \(first.sequence) to \(last.sequence) over \(intervals) frame intervals")
            #expect(abs(Double(counted) - intervals) < 2.5, "\(counted) sequence numbers over \(intervals) frame intervals")
        }

        @Test func flashStrobeLightsAFrame() throws {
            let client = try V4L2TestClient(device.path)
            defer { try? client.setControl(ControlID.flashLEDMode, 0) }
            try client.setControl(ControlID.flashLEDMode, 0)
            let before = try sceneFrame(client).meanSceneLuma
            try client.setControl(ControlID.flashLEDMode, 1)
            try client.setControl(ControlID.flashStrobe, 0)
            let strobed = try sceneFrame(client).meanSceneLuma
            #expect(strobed > before + 30, "strobed frame luma \(strobed), before \(before)")
        }

        /// Streams briefly and returns a frame rendered after the controls were set.
        private func sceneFrame(_ client: V4L2TestClient) throws -> VirtualFrameReader {
            try client.setFormat(width: 320, height: 240)
            try client.startStreaming(buffers: 2)
            defer { try? client.stopStreaming() }
            let frame = try client.nextFrame()
            return VirtualFrameReader(bytes: frame.bytes, width: frame.width, height: frame.height, layout: .yuyv)
        }
    }
}
