import Testing
@testable import CameraErrors

@Suite struct CameraErrorTests {
    @Test func permissionDeniedExplainsTheVideoGroup() {
        let text = CameraError.permissionDenied(path: "/dev/video0").description
        #expect(text.contains("/dev/video0"))
        #expect(text.contains("video` group"))
    }

    @Test func missingElementNamesThePackage() {
        let text = CameraError.missingElement(factory: "jpegenc", package: "gstreamer1.0-plugins-good", file: "a.pipeline").description
        #expect(text.contains("jpegenc"))
        #expect(text.contains("apt-get install gstreamer1.0-plugins-good"))
        #expect(text.contains("a.pipeline"))
    }

    @Test func noSuchDeviceListsWhatExists() {
        let text = CameraError.noSuchDevice(path: "/dev/video9", available: ["/dev/video0 (Virtual UVC)"]).description
        #expect(text.contains("/dev/video9 does not exist"))
        #expect(text.contains("/dev/video0 (Virtual UVC)"))
    }
}
