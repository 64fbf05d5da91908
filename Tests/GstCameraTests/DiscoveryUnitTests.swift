import Glibc
import Testing
@testable import CameraErrors
@testable import Cameras
@testable import Controls
@testable import LinuxSystem
@testable import V4L2

/// Discovery logic that needs no device: node names, the IR heuristic, stable links, selectors.
@Suite struct DiscoveryUnitTests {
    static func camera(_ index: Int, _ name: String, path: String? = nil, id: String? = nil) -> Camera {
        Camera(index: index, path: path ?? "/dev/video\(index * 2)", name: name, driver: "uvcvideo", busInfo: "usb-\(index)",
               stableID: id, stablePath: nil, nodes: [], isInfrared: false, formats: [], features: ControlSummary(), problem: nil)
    }

    static let cameras = [
        camera(0, "Integrated Camera: Integrated C", id: "/dev/v4l/by-id/usb-Chicony_Integrated_Camera-video-index0"),
        camera(1, "Integrated Camera: Integrated I"),
        camera(2, "HD Pro Webcam C920"),
    ]

    @Test func onlyVideoNodesAreKeptInNumericOrder() {
        let names = ["video10", "video2", "vcs", "video", "videox1", "media0", "video0", "v4l"]
        #expect(CameraDiscovery.videoNodeNames(in: names).map(\.name) == ["video0", "video2", "video10"])
    }

    @Test func greyscaleOnlyOrIRInTheNameMeansInfrared() {
        #expect(CameraDiscovery.looksInfrared(name: "Integrated Camera: Integrated I", formats: [.grey]))
        #expect(CameraDiscovery.looksInfrared(name: "Integrated IR Camera", formats: [.yuyv]))
        #expect(CameraDiscovery.looksInfrared(name: "Some Infrared Sensor", formats: []))
        #expect(!CameraDiscovery.looksInfrared(name: "HD Pro Webcam C920", formats: [.yuyv, .mjpeg]))
        #expect(!CameraDiscovery.looksInfrared(name: "Virtual Camera", formats: [.grey, .yuyv]))
        #expect(!CameraDiscovery.looksInfrared(name: "Mirage", formats: []))  // "ir" inside a word is no mark
    }

    @Test func selectorByIndexPathNodeAndStableID() throws {
        #expect(try CameraSelector.select(nil, from: Self.cameras).index == 0)
        #expect(try CameraSelector.select("", from: Self.cameras).index == 0)
        #expect(try CameraSelector.select("2", from: Self.cameras).index == 2)
        #expect(try CameraSelector.select("/dev/video2", from: Self.cameras).index == 1)
        #expect(try CameraSelector.select("video4", from: Self.cameras).index == 2)
        #expect(try CameraSelector.select("/dev/v4l/by-id/usb-Chicony_Integrated_Camera-video-index0", from: Self.cameras).index == 0)
        #expect(try CameraSelector.select("usb-Chicony_Integrated_Camera-video-index0", from: Self.cameras).index == 0)
    }

    @Test func selectorByNameFragmentIgnoresCase() throws {
        #expect(try CameraSelector.select("c920", from: Self.cameras).index == 2)
        #expect(try CameraSelector.select("integrated i", from: Self.cameras).index == 1)
    }

    @Test func ambiguousFragmentListsTheMatches() {
        #expect(throws: CameraError.ambiguousCamera(selector: "integrated", matches: [
            "0: /dev/video0 — Integrated Camera: Integrated C", "1: /dev/video2 — Integrated Camera: Integrated I",
        ])) { try CameraSelector.select("integrated", from: Self.cameras) }
    }

    @Test func unknownSelectorListsTheCameras() {
        let available = Self.cameras.map(\.summary)
        #expect(throws: CameraError.unknownCamera(selector: "7", available: available)) {
            try CameraSelector.select("7", from: Self.cameras)
        }
        #expect(throws: CameraError.unknownCamera(selector: "logitech brio", available: available)) {
            try CameraSelector.select("logitech brio", from: Self.cameras)
        }
        #expect(throws: CameraError.noSuchDevice(path: "/dev/video99", available: available)) {
            try CameraSelector.select("/dev/video99", from: Self.cameras)
        }
        #expect(throws: CameraError.notCaptureDevice(path: "/dev/null", reason: "not a V4L2 device")) {
            try CameraSelector.select("/dev/null", from: Self.cameras)
        }
        let text = CameraError.unknownCamera(selector: "7", available: available).description
        #expect(text.contains("No camera matches \"7\""))
        #expect(text.contains("2: /dev/video4 — HD Pro Webcam C920"))
    }

    @Test func noCameraAtAll() {
        #expect(throws: CameraError.noCamera) { try CameraSelector.select(nil, from: []) }
        #expect(throws: CameraError.noCamera) { try CameraSelector.select("0", from: []) }
    }

    @Test func stableLinksResolveRelativeTargets() throws {
        let base = "/tmp/gstcam-links-\(getpid())"
        for directory in [base, base + "/by-id", base + "/by-path"] { mkdir(directory, 0o755) }
        defer {
            for link in ["by-id/usb-Cam-video-index0", "by-id/usb-Cam-video-index1", "by-path/pci-usb-0:1:1.0-video-index0"] {
                unlink(base + "/" + link)
            }
            for directory in [base + "/by-id", base + "/by-path", base] { rmdir(directory) }
        }
        symlink("../../video0", base + "/by-id/usb-Cam-video-index0")
        symlink("/dev/video1", base + "/by-id/usb-Cam-video-index1")
        symlink("../../../dev/./video0", base + "/by-path/pci-usb-0:1:1.0-video-index0")
        let links = StableLinks(directories: [base + "/by-id", base + "/by-path"])
        let parent = DirectoryListing.normalize(base + "/..")
        #expect(links.byID[parent + "/video0"] == base + "/by-id/usb-Cam-video-index0")
        #expect(links.byID["/dev/video1"] == base + "/by-id/usb-Cam-video-index1")
        #expect(links.byPath[DirectoryListing.normalize(base + "/../../dev/video0")] == base + "/by-path/pci-usb-0:1:1.0-video-index0")
    }

    @Test func pixelFormatFourccRoundTrip() {
        #expect(PixelFormat.yuyv.rawValue == 0x5659_5559)
        #expect(PixelFormat.mjpeg.description == "MJPG")
        #expect(PixelFormat.y16.description == "Y16")
        #expect(PixelFormat(fourcc: "NV12") == .nv12)
        #expect(PixelFormat(fourcc: "TOOLONG") == nil)
    }
}
