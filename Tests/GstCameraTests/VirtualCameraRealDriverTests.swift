// The virtual camera's imitation of real drivers (issue 10 item 6): the webcam and vivid mode tables with
// per-size, fractional frame intervals, vivid's test controls of every type, and vivid's disconnect.
// What is checked is what any V4L2 program sees: ioctl answers in this process, and v4l2-ctl's output.
import CGStreamer
import Foundation
import Glibc
import Testing
import GstCamera

/// A device of its own for a subprocess: one VCAM_DEVICES entry and a fresh state directory.
private func privateDevice(_ spec: String) throws -> [String: String] {
    ["VCAM_DEVICES": spec, "VCAM_STATE_DIR": try VirtualCameraFixture.privateStateDirectory()]
}

private func v4l2ctl(_ arguments: [String], _ environment: [String: String]) throws -> ToolResult {
    try runTool("v4l2-ctl", arguments, environment: environment)
}

@Suite(.serialized) struct VirtualCameraModeTableTests {
    /// ENUM_FRAMEINTERVALS of one format and size, as fractions "numerator/denominator".
    private func intervals(_ client: V4L2TestClient, _ fourcc: UInt32, _ width: UInt32, _ height: UInt32) -> [String] {
        var result: [String] = []
        for index in 0..<32 as Range<UInt32> {
            var interval = v4l2_frmivalenum()
            interval.index = index
            interval.pixel_format = fourcc
            interval.width = width
            interval.height = height
            guard client.ioctlErrno(gstcam_vidioc_enum_frameintervals(), &interval) == 0 else { break }
            #expect(interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue)
            result.append("\(interval.discrete.numerator)/\(interval.discrete.denominator)")
        }
        return result
    }

    @Test func vividRatesDependOnTheSizeAndIncludeTwentyFifths() throws {
        let client = try V4L2TestClient("/dev/video18")
        let yuyv = gstcam_fourcc_yuyv()
        #expect(intervals(client, yuyv, 640, 480) == ["1/1", "1/2", "1/4", "1/5", "1/10", "2/25", "1/15", "1/25"])
        #expect(intervals(client, yuyv, 1280, 720) == ["1/1", "1/2", "1/4", "1/5", "1/10", "2/25"])
        #expect(intervals(client, yuyv, 1920, 1080) == ["1/1", "1/2", "1/4", "1/5"])
        #expect(intervals(client, yuyv, 320, 180).last == "1/60")
    }

    @Test func webcamListsSlowRawHDAndFastMotionJPEG() throws {
        let result = try v4l2ctl(["-d", "/dev/video0", "--list-formats-ext"], try privateDevice("/dev/video0=webcam"))
        #expect(result.status == 0, "\(result.combined)")
        // Each format's sizes with their rates, as v4l2-ctl prints them on a real UVC webcam.
        let expected = """
        	[0]: 'YUYV' (YUYV 4:2:2)
        		Size: Discrete 640x480
        			Interval: Discrete 0.033s (30.000 fps)
        			Interval: Discrete 0.067s (15.000 fps)
        		Size: Discrete 1280x720
        			Interval: Discrete 0.100s (10.000 fps)
        			Interval: Discrete 0.200s (5.000 fps)
        		Size: Discrete 1920x1080
        			Interval: Discrete 0.200s (5.000 fps)
        	[1]: 'MJPG' (Motion-JPEG, compressed)
        		Size: Discrete 640x480
        			Interval: Discrete 0.033s (30.000 fps)
        			Interval: Discrete 0.067s (15.000 fps)
        		Size: Discrete 1280x720
        			Interval: Discrete 0.033s (30.000 fps)
        			Interval: Discrete 0.067s (15.000 fps)
        		Size: Discrete 1920x1080
        			Interval: Discrete 0.033s (30.000 fps)
        			Interval: Discrete 0.067s (15.000 fps)
        """
        #expect(result.output.contains(expected), "\(result.output)")
    }

    @Test func vividStartsAt640x360FiveFPSAndKeepsTheNearestRateOnANewSize() throws {
        let device = try privateDevice("/dev/video0=vivid")
        let start = try v4l2ctl(["-d", "/dev/video0", "-V", "-P"], device)
        #expect(start.output.contains("Width/Height      : 640/360"), "\(start.output)")
        #expect(start.output.contains("Frames per second: 5.000 (5/1)"), "\(start.output)")
        _ = try v4l2ctl(["-d", "/dev/video0", "--set-fmt-video", "width=320,height=180", "-p", "60"], device)
        // 1280x720 has no 60 fps: vivid keeps the fastest it has, 12.5 (interval 2/25).
        _ = try v4l2ctl(["-d", "/dev/video0", "--set-fmt-video", "width=1280,height=720"], device)
        let after = try v4l2ctl(["-d", "/dev/video0", "-P"], device)
        #expect(after.output.contains("Frames per second: 12.500 (25/2)"), "\(after.output)")
    }

    @Test func vividListsTheSevenFormatsItRendersInVividsOrder() throws {
        let list = try v4l2ctl(["-d", "/dev/video0", "--list-formats"], try privateDevice("/dev/video0=vivid"))
        let formats = list.output.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: "'", omittingEmptySubsequences: false)
            return parts.count >= 3 ? String(parts[1]) : nil
        }
        #expect(formats == ["YUYV", "UYVY", "NV12", "GREY", "RGB3", "BGR3", "BA81"], "\(list.output)")
    }

    /// Each converted format decodes (through GStreamer, Bayer through bayer2rgb) to the frame of
    /// docs/virtual-camera.md: the identity colour in the band, the checkerboard's grey levels in the scene.
    @Test(arguments: ["video/x-raw,format=UYVY", "video/x-raw,format=GRAY8", "video/x-raw,format=RGB",
                      "video/x-raw,format=BGR", "video/x-bayer,format=bggr"])
    func convertedFormatsShowTheFrame(_ caps: String) throws {
        let folder = try VirtualCameraFixture.privateStateDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var environment = try privateDevice("/dev/video0=vivid,color=e61e1e")
        environment["GST_V4L2_USE_LIBV4L2"] = nil
        let convert = caps.hasPrefix("video/x-bayer") ? ["bayer2rgb", "!", "videoconvert"] : ["videoconvert"]
        let run = try runTool("gst-launch-1.0", ["-q", "v4l2src", "device=/dev/video0", "num-buffers=2", "!",
                                                 caps + ",width=640,height=480,framerate=25/1", "!"] + convert
                                  + ["!", "video/x-raw,format=RGB", "!", "multifilesink", "location=\(folder)/frame%d.rgb"],
                              environment: environment)
        #expect(run.status == 0, "\(run.combined)")
        let frame = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(folder)/frame1.rgb")))
        #expect(frame.count == 640 * 480 * 3)
        func pixel(_ x: Int, _ y: Int) -> [Int] { (0..<3).map { Int(frame[(y * 640 + x) * 3 + $0]) } }
        let band = pixel(320, 40), light = pixel(90, 200), dark = pixel(10, 200)
        if caps.contains("GRAY8") {
            // Luma of e61e1e (full range): 0.299·230 + 0.587·30 + 0.114·30 ≈ 90.
            #expect(band.allSatisfy { abs($0 - 90) <= 6 }, "band \(band)")
        } else {
            #expect(abs(band[0] - 0xe6) <= 15 && abs(band[1] - 0x1e) <= 15 && abs(band[2] - 0x1e) <= 15, "band \(band)")
        }
        #expect(light.allSatisfy { abs($0 - 190) <= 8 } && dark.allSatisfy { abs($0 - 60) <= 8 }, "scene \(light) \(dark)")
    }

    /// vivid stamps each frame's end, computed as its start plus 90 % of a frame interval, and hands it over at its
    /// start (in the vivid guest at 640x480, 15 fps: the stamp 56 ms in the future when dequeued; v4l2src then
    /// says it is "ignoring driver timestamps" and stamps frames one interval before they arrive). uvcvideo, and
    /// the other profiles, stamp the frame's start, in the past.
    @Test(arguments: [("vivid", "ts-src-eof", true), ("uvc", "ts-src-soe", false)])
    func timestampsAreStampedAsTheDriverStampsThem(_ profile: String, _ flag: String, _ distrusted: Bool) throws {
        let device = try privateDevice("/dev/video0=\(profile)")
        _ = try v4l2ctl(["-d", "/dev/video0", "--set-fmt-video", "width=640,height=480,pixelformat=YUYV", "-p", "15"], device)
        let stream = try v4l2ctl(["-d", "/dev/video0", "--stream-mmap", "--stream-count=3", "--verbose"], device)
        #expect(stream.combined.contains(flag) && stream.combined.contains("ts-monotonic"), "\(stream.combined)")
        var debug = device
        debug["GST_DEBUG"] = "v4l2src:2"
        let pipeline = try runTool("gst-launch-1.0", ["v4l2src", "device=/dev/video0", "num-buffers=3", "!",
                                                      "video/x-raw,width=640,height=480,framerate=15/1", "!", "fakesink"],
                                   environment: debug)
        #expect(pipeline.status == 0, "\(pipeline.errorOutput)")
        #expect(pipeline.errorOutput.contains("ignoring driver timestamps") == distrusted, "\(pipeline.errorOutput)")
    }

    /// vivid fills its first frame at STREAMON and the next ones a frame interval apart (in the vivid guest at 1 fps,
    /// `--stream-count=1` returns as soon as at 25 fps); a USB camera's first frame comes a frame interval later.
    @Test(arguments: [("vivid", 0.0), ("uvc,fps=1+30", 1.0)])
    func theFirstFrameComesAsTheDriverSendsIt(_ profile: String, _ firstFrameSeconds: Double) throws {
        let device = try privateDevice("/dev/video0=\(profile)")
        _ = try v4l2ctl(["-d", "/dev/video0", "--set-fmt-video", "width=640,height=480,pixelformat=YUYV", "-p", "1"], device)
        let started = Date()
        let stream = try v4l2ctl(["-d", "/dev/video0", "--stream-mmap", "--stream-count=2"], device)
        let elapsed = Date().timeIntervalSince(started)
        #expect(stream.status == 0, "\(stream.combined)")
        // Two frames at 1 fps: the second comes a second after the first. Room for a slow start, not for a frame.
        #expect(elapsed >= firstFrameSeconds + 0.95 && elapsed < firstFrameSeconds + 1.6, "\(profile): two frames in \(elapsed) s")
    }

    @Test func fpsOptionTakesDecimalsAndFractions() throws {
        let device = try privateDevice("/dev/video0=basic,fps=30+12.5+30000/1001")
        let list = try v4l2ctl(["-d", "/dev/video0", "--list-frameintervals", "width=640,height=480,pixelformat=YUYV"], device)
        #expect(list.output.contains("(30.000 fps)") && list.output.contains("(12.500 fps)") && list.output.contains("(29.970 fps)"),
                "\(list.output)")
        let set = try v4l2ctl(["-d", "/dev/video0", "-p", "29.97"], device)
        #expect(set.status == 0)
        let parm = try v4l2ctl(["-d", "/dev/video0", "-P"], device)
        #expect(parm.output.contains("(30000/1001)"), "\(parm.output)")
    }
}

@Suite(.serialized) struct VirtualCameraVividControlTests {
    @Test func everyControlTypeIsSetAndReadBack() throws {
        let device = try privateDevice("/dev/video0=vivid")
        let set = try v4l2ctl(["-d", "/dev/video0", "-c",
                               "integer_64_bits=-9223372036854775808,string=abcd,bitmask=0x80400010,integer_menu=8,menu=4,"
                                   + "integer_32_bits=-2147483648,boolean=0,u32_1_element_array=100000,button=1"], device)
        #expect(set.status == 0, "\(set.combined)")
        let read = try v4l2ctl(["-d", "/dev/video0", "-C",
                                "integer_64_bits,string,bitmask,integer_menu,menu,integer_32_bits,boolean,u32_1_element_array"], device)
        #expect(read.output.contains("integer_64_bits: -9223372036854775808"), "\(read.output)")
        #expect(read.output.contains("string: 'abcd'"), "\(read.output)")
        #expect(read.output.contains("bitmask: \(Int32(bitPattern: 0x8040_0010))"), "\(read.output)")
        #expect(read.output.contains("integer_menu: 8 (42 0x2a)"), "\(read.output)")
        #expect(read.output.contains("menu: 4 (Menu Item 4)"), "\(read.output)")
        #expect(read.output.contains("integer_32_bits: -2147483648"), "\(read.output)")
        #expect(read.output.contains("boolean: 0"), "\(read.output)")
        #expect(read.output.contains("u32_1_element_array:     100000"), "\(read.output)")
    }

    @Test func listingMatchesVividsControlTable() throws {
        let list = try v4l2ctl(["-d", "/dev/video0", "-L"], try privateDevice("/dev/video0=vivid"))
        for line in [
            "integer_64_bits 0x0098f903 (int64)  : min=-9223372036854775808 max=9223372036854775807 step=1 default=0 value=0",
            "menu 0x0098f904 (menu)   : min=1 max=4 default=3 value=3 (Menu Item 3)",
            "string 0x0098f905 (str)    : min=2 max=4 step=1 value='  ' flags=has-payload",
            "bitmask 0x0098f906 (bitmask): max=0x80402010 default=0x80002000 value=-2147475456",
            "integer_menu 0x0098f907 (intmenu): min=1 max=8 default=4 value=4 (5 0x5)",
            "u16_8x16_matrix 0x0098f909 (u16)    : min=16 max=8192 step=1 default=24 dims=[8][16] flags=has-payload",
            "u8_2x3x4x5_array 0x0098f90a (u8)     : min=16 max=32 step=1 default=24 dims=[2][3][4][5] flags=has-payload",
            "button 0x0098f900 (button) : value=0 flags=write-only, execute-on-write",
            "disconnect 0x00f0f041 (button) : value=0 flags=write-only, execute-on-write",
        ] {
            #expect(list.output.contains(line), "missing: \(line)\n\(list.output)")
        }
        #expect(!list.output.contains("2: Menu Item 2"), "the menu has a hole at 2, as vivid's")
    }

    /// vivid's error injection buttons, pressed with v4l2-ctl as on vivid (docs/virtual-camera.md).
    @Test func errorInjectionFailsTheNextIoctlOnceAsVividDoes() throws {
        let device = try privateDevice("/dev/video0=vivid")
        _ = try v4l2ctl(["-d", "/dev/video0", "--set-fmt-video", "width=320,height=180", "-p", "25"], device)
        let stream = ["-d", "/dev/video0", "--stream-mmap", "--stream-count=3"]
        for (button, ioctl) in [("inject_vidioc_streamon_error", "VIDIOC_STREAMON"), ("inject_vidioc_qbuf_error", "VIDIOC_QBUF"),
                                ("inject_vidioc_reqbufs_error", "VIDIOC_REQBUFS")] {
            #expect(try v4l2ctl(["-d", "/dev/video0", "-c", "\(button)=1"], device).status == 0)
            let failed = try v4l2ctl(stream, device)
            #expect(failed.combined.contains("\(ioctl) returned -1 (Invalid argument)"), "\(button): \(failed.combined)")
            let next = try v4l2ctl(stream, device)
            #expect(!next.combined.contains("returned -1"), "only once: \(next.combined)")
        }
    }

    @Test func fatalErrorAndErrorFlagAndDroppedBuffersShowWhileStreaming() throws {
        let device = try privateDevice("/dev/video0=vivid")
        _ = try v4l2ctl(["-d", "/dev/video0", "--set-fmt-video", "width=320,height=180", "-p", "25"], device)
        try #require(try v4l2ctl(["-d", "/dev/video0", "-c", "inject_v4l2_buf_flag_error=1"], device).status == 0)
        let flagged = try v4l2ctl(["-d", "/dev/video0", "--stream-mmap", "--stream-count=3", "--verbose"], device)
        #expect(flagged.combined.contains("seq:      0 bytesused: 115200") && flagged.combined.contains("(error, ts-monotonic"),
                "the first frame carries V4L2_BUF_FLAG_ERROR: \(flagged.combined)")
        try #require(try v4l2ctl(["-d", "/dev/video0", "-c", "inject_fatal_streaming_error=1"], device).status == 0)
        let fatal = try v4l2ctl(["-d", "/dev/video0", "--stream-mmap", "--stream-count=10"], device)
        #expect(fatal.combined.contains("VIDIOC_DQBUF: failed: Input/output error"), "\(fatal.combined)")
        try #require(try v4l2ctl(["-d", "/dev/video0", "-c", "percentage_of_dropped_buffers=100"], device).status == 0)
        let none = try runTool("timeout", ["-s", "KILL", "3", "v4l2-ctl", "-d", "/dev/video0", "--stream-mmap", "--stream-count=1"], environment: device)
        #expect([9, 124, 137].contains(none.status), "every frame dropped: nothing to dequeue (\(none.combined))")
    }

    @Test func valuesTheControlFrameworkRefusesAreRefused() throws {
        let device = try privateDevice("/dev/video0=vivid")
        let hole = try v4l2ctl(["-d", "/dev/video0", "-c", "menu=2"], device)
        #expect(hole.combined.contains("Invalid argument"), "\(hole.combined)")
        let short = try v4l2ctl(["-d", "/dev/video0", "-c", "string=a"], device)
        #expect(short.combined.contains("Numerical result out of range"), "\(short.combined)")
        let skipped = try v4l2ctl(["-d", "/dev/video0", "-c", "integer_menu=1"], device)
        #expect(skipped.combined.contains("Invalid argument"), "\(skipped.combined)")
        let readBack = try v4l2ctl(["-d", "/dev/video0", "-C", "menu,string,integer_menu"], device)
        #expect(readBack.output.contains("menu: 3") && readBack.output.contains("string: '  '")
                    && readBack.output.contains("integer_menu: 4"), "nothing changed: \(readBack.output)")
    }
}

extension FaultDeviceTests {
    /// vivid's disconnect: ENODEV from every ioctl, POLLERR (and POLLPRI), the node staying, and the device coming
    /// back once its last file handle is closed.
    @Suite(.serialized) struct VirtualCameraDisconnectTests {
        @Test func disconnectedFileFailsEveryIoctlKeepsTheNodeAndReconnectsAfterTheLastClose() throws {
            let device = VirtualCameraFixture.faultDevice
            defer { VirtualCameraFixture.clear("disconnected", of: device) }
            var client: V4L2TestClient? = try V4L2TestClient(device.path)
            try client!.setFormat(width: 320, height: 240)
            try client!.startStreaming()
            _ = try client!.nextFrame()
            try VirtualCameraFixture.inject("disconnected", into: device)

            let revents = FaultDeviceTests.waitForPollError(client!)
            #expect(revents & Int16(POLLERR) != 0 && revents & Int16(POLLHUP) != 0 && revents & Int16(POLLPRI) != 0,
                    "poll revents \(revents)")
            #expect(client!.queryCapabilityErrno() == ENODEV)
            var buffer = v4l2_buffer()
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            #expect(client!.ioctlErrno(gstcam_vidioc_qbuf(), &buffer) == ENODEV)
            #expect(client!.ioctlErrno(gstcam_vidioc_dqbuf(), &buffer) == ENODEV)
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            #expect(client!.ioctlErrno(gstcam_vidioc_streamon(), &type) == ENODEV)

            // The node stays while a handle is open, but cannot be opened.
            var st = stat()
            #expect(stat(device.path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR, "the node should stay")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).contains(device.name))
            #expect(open(device.path, O_RDWR) == -1 && errno == ENODEV)
            let other = try runTool("v4l2-ctl", ["-d", device.path, "-D"])
            #expect(other.status != 0, "another process cannot open it either: \(other.combined)")

            client = nil   // the last close: the device reconnects
            #expect(!FileManager.default.fileExists(atPath: VirtualCameraFixture.faultFile("disconnected", of: device)))
            let fresh = try V4L2TestClient(device.path)
            try fresh.setFormat(width: 320, height: 240)
            try fresh.startStreaming()
            _ = try fresh.nextFrame()
            try fresh.stopStreaming()
        }

        @Test func vividDisconnectButtonFromAnotherProcessStopsAStreamUntilTheLastClose() throws {
            var client: V4L2TestClient? = try V4L2TestClient("/dev/video18")
            try client!.setFormat(width: 320, height: 180)
            try client!.startStreaming()
            _ = try client!.nextFrame(timeout: 3000)
            let press = try runTool("v4l2-ctl", ["-d", "/dev/video18", "-c", "disconnect=1"])
            #expect(press.status == 0, "\(press.combined)")
            let revents = FaultDeviceTests.waitForPollError(client!)
            #expect(revents & Int16(POLLERR) != 0, "poll revents \(revents)")
            #expect(client!.queryCapabilityErrno() == ENODEV)
            let reopen = try runTool("v4l2-ctl", ["-d", "/dev/video18", "-D"])
            #expect(reopen.status != 0, "open while this process still holds it: \(reopen.combined)")
            client = nil
            let after = try runTool("v4l2-ctl", ["-d", "/dev/video18", "-D"])
            #expect(after.status == 0 && after.output.contains("Driver name      : vivid"), "\(after.combined)")
        }
    }
}
