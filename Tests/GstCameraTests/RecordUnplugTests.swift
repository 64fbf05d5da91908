import Foundation
import Glibc
import Testing
@testable import GstCamera

/// The camera unplugged mid-recording (the virtual camera's "unplugged" fault, on a private camera): gstcam
/// says what happened and where the video is, exits 1, and the file plays with what was recorded.
@Suite struct RecordUnplugTests {
    @Test func anUnpluggedCameraLeavesAPlayableFileAndAClearError() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/vcam/video0", withIntermediateDirectories: true)
        let environment = try privateVirtualCameras("/dev/video0=uvc,color=e61e1e", in: folder)
        let path = folder + "/unplugged.mp4"
        let recorder = try BackgroundGstcam(["record", "--device", "/dev/video0", "--width", "320", "--height", "240",
                                             "-o", path, "--json"], environment: environment)
        defer { recorder.remove() }
        #expect(recorder.wait(10) { recorder.output.components(separatedBy: #""event":"progress""#).count > 2 }, "\(recorder.errors)")
        _ = FileManager.default.createFile(atPath: folder + "/vcam/video0/unplugged", contents: nil)
        #expect(recorder.exitStatus(within: 10) == 1, "\(recorder.errors)")
        #expect(recorder.errors.contains("/dev/video0 was disconnected"), "\(recorder.errors)")
        #expect(recorder.errors.contains("\(path) holds the "), "\(recorder.errors)")
        let probed = try ProbedVideo.read(path)
        // Two progress lines came (2 s), so at least the first whole second is in the file.
        #expect(probed.codec == "h264" && probed.frames >= 30, "\(probed.frames) frames")
        #expect(try decodeEveryFrame(path).status == 0)
    }
}
