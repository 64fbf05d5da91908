// The virtual camera seen by unmodified Debian tools in subprocesses: gst-launch-1.0 (v4l2src) and
// v4l2-ctl. Each run gets a private state directory, so these tests never contend for a device.
import Foundation
import Testing
import GstCamera

@Suite struct VirtualCameraPipelineTests {
    @Test(arguments: VirtualCameraFixture.devices)
    func v4l2srcStreamsThirtyBuffers(device: VirtualTestDevice) throws {
        let state = try VirtualCameraFixture.privateStateDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let result = try runTool("gst-launch-1.0", ["v4l2src", "device=\(device.path)", "num-buffers=30", "!", "fakesink"],
                                 environment: ["VCAM_STATE_DIR": state])
        #expect(result.status == 0, "gst-launch on \(device.path) failed: \(result.combined)")
        #expect(result.output.contains("Got EOS"))
    }

    /// Decodes a frame that went through v4l2src and videoconvert to RGB: the band shows the device's
    /// identity colour and the stamp shows the first sequence number, 0.
    @Test(arguments: VirtualCameraFixture.devices)
    func rawFrameShowsDeviceIdentity(device: VirtualTestDevice) throws {
        let frame = try captureRGB(device: device, caps: "video/x-raw,format=YUY2,width=320,height=240")
        let reader = VirtualFrameReader(bytes: frame, width: 320, height: 240, layout: .rgb)
        expectIdentity(reader, device)
        #expect(reader.stamp == 0)
    }

    @Test func nv12FrameShowsDeviceIdentity() throws {
        let device = VirtualCameraFixture.devices[1]
        let frame = try captureRGB(device: device, caps: "video/x-raw,format=NV12,width=640,height=480")
        let reader = VirtualFrameReader(bytes: frame, width: 640, height: 480, layout: .rgb)
        expectIdentity(reader, device)
        #expect(reader.stamp == 0)
    }

    @Test func mjpegFrameShowsDeviceIdentityAndStamp() throws {
        let device = VirtualCameraFixture.devices[0]
        let frame = try captureRGB(device: device, caps: "image/jpeg,width=640,height=480", decoder: ["jpegdec", "!"],
                                   buffers: 3)
        let frameBytes = 640 * 480 * 3
        #expect(frame.count == frameBytes * 3)
        for index in 0..<3 {
            let one = Array(frame[(index * frameBytes)..<((index + 1) * frameBytes)])
            let reader = VirtualFrameReader(bytes: one, width: 640, height: 480, layout: .rgb)
            expectIdentity(reader, device)
            #expect(reader.stamp == UInt32(index), "frame \(index) of the MJPG stream carries stamp \(reader.stamp)")
        }
    }

    @Test func v4l2CtlListsEveryVirtualDevice() throws {
        let result = try runTool("v4l2-ctl", ["--list-devices"])
        #expect(result.status == 0, "\(result.combined)")
        for device in VirtualCameraFixture.devices where device.path != VirtualCameraFixture.faultDevice.path {
            #expect(result.output.contains(device.card), "v4l2-ctl --list-devices lacks \(device.card): \(result.output)")
            #expect(result.output.contains(device.path))
        }
    }

    private func expectIdentity(_ reader: VirtualFrameReader, _ device: VirtualTestDevice,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        let seen = reader.identity
        let want = device.identity
        let distance = abs(seen.red - want.red) + abs(seen.green - want.green) + abs(seen.blue - want.blue)
        #expect(distance < 40, "\(device.path) band shows \(seen), expected \(want)", sourceLocation: sourceLocation)
    }

    private func captureRGB(device: VirtualTestDevice, caps: String, decoder: [String] = [], buffers: Int = 1) throws -> [UInt8] {
        let state = try VirtualCameraFixture.privateStateDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let output = state + "/frame.rgb"
        let pipeline = ["v4l2src", "device=\(device.path)", "num-buffers=\(buffers)", "!", caps, "!"] + decoder
            + ["videoconvert", "!", "video/x-raw,format=RGB", "!", "filesink", "location=\(output)"]
        let result = try runTool("gst-launch-1.0", pipeline, environment: ["VCAM_STATE_DIR": state])
        #expect(result.status == 0, "gst-launch on \(device.path) failed: \(result.combined)")
        return [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data())
    }
}
