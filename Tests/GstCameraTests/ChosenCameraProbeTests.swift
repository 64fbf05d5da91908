import Foundation
import Testing
@testable import Cameras

/// A camera chosen by its path is the only camera opened (issue 13): the other cameras are not probed, not
/// even once. Seen through the virtual camera's one-shot fault: an ioctl on a camera with `fail-ioctl ANY`
/// uses the fault file up, so a file still there afterwards means nothing touched that camera.
@Suite(.serialized) struct ChosenCameraProbeTests {
    @Test func aCaptureByPathOpensNoOtherCamera() throws {
        let untouched = ["video2/fail-ioctl": "ANY EIO", "video4/fail-ioctl": "ANY EIO"]
        let cameras = try VirtualCameras.Isolated(files: untouched)
        defer { cameras.remove() }
        let photo = cameras.stateDirectory + "/photo.jpg"
        let byPath = try cameras.gstcam("capture", "--immediate", "--device", "/dev/video0", "--width", "320", "--height", "240", "-o", photo)
        #expect(byPath.status == 0, "\(byPath.standardError)")
        #expect(FileManager.default.fileExists(atPath: photo))
        for path in untouched.keys {
            #expect(FileManager.default.fileExists(atPath: cameras.stateDirectory + "/" + path), "\(path) was used up: that camera was opened")
        }
        let get = try cameras.gstcam("get", "--device", "/dev/video0", "brightness")
        #expect(get.status == 0, "\(get.standardError)")
        for path in untouched.keys { #expect(FileManager.default.fileExists(atPath: cameras.stateDirectory + "/" + path)) }

        // Without a path the first camera is found by discovery, which asks every camera: the faults are used up
        // (this is what the checks above would see if a capture by path probed the others).
        let first = try cameras.gstcam("capture", "--immediate", "--width", "320", "--height", "240", "-o", photo, "--overwrite")
        #expect(first.status == 0, "\(first.standardError)")
        for path in untouched.keys { #expect(!FileManager.default.fileExists(atPath: cameras.stateDirectory + "/" + path)) }
    }

    /// The camera screen's list of the other cameras (for `c` and hot-plug) asks each only what it is: their
    /// formats and controls are not read (issue 13: 5 ms of a preview's start with twelve cameras, and USB traffic
    /// to each real one).
    @Test func aPreviewListsTheOtherCamerasWithoutReadingTheirFormats() throws {
        let faults = ["video2/fail-ioctl": "ENUM_FMT EIO", "video4/fail-ioctl": "ENUM_FRAMESIZES EIO"]
        let cameras = try VirtualCameras.Isolated(files: faults)
        defer { cameras.remove() }
        let preview = try cameras.gstcam("preview", "--device", "/dev/video0", "--width", "320", "--height", "240",
                                         "--sink", "none", "--duration", "1")
        #expect(preview.status == 0, "\(preview.standardError)")
        for path in faults.keys {
            #expect(FileManager.default.fileExists(atPath: cameras.stateDirectory + "/" + path), "\(path) was used up")
        }
    }

    @Test func aCameraChosenByPathIsProbedAloneWithTheSameModes() throws {
        let listed = try #require(CameraDiscovery.cameras().first)
        let alone = try CameraDiscovery.camera(matching: listed.path)
        #expect(alone.index == -1)
        #expect(alone.path == listed.path && alone.name == listed.name && alone.busInfo == listed.busInfo)
        #expect(alone.formats == listed.formats && alone.features == listed.features)
        #expect(alone.summary == "\(listed.path) — \(listed.name)")
        // Any other selector is looked up in the list.
        #expect(try CameraDiscovery.camera(matching: "0").index == 0)
    }
}
