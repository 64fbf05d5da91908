import Foundation
import Testing
@testable import CameraErrors
@testable import GStreamer
@testable import Session

/// Bad input gets advice about the input, not about installing packages (issue 16): a file that is not a
/// pipeline, a typo'd element, a `split` that is not a tee, a size nothing can make.
@Suite struct PipelineAdviceTests {
    private func startError(pipeline: String, width: Int = 160, height: Int = 120, device: String? = nil) async -> CameraError? {
        do {
            let session = try CameraSession(configuration: CameraConfiguration(pipeline: pipeline, device: device, width: width, height: height))
            try await session.start()
            session.stop()
            return nil
        } catch {
            return error as? CameraError
        }
    }

    private func withFile<T>(_ text: String, _ body: (String) async throws -> T) async throws -> T {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/mine.pipeline"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return try await body(file)
    }

    @Test func aFileThatIsNotAPipelineIsCalledThatNotAMissingElement() async throws {
        let passwd = await startError(pipeline: "/etc/passwd")
        #expect(passwd == .badPipelineFile(file: "/etc/passwd", detail: "this is not a GStreamer pipeline description: "
            + "no \"!\" links one element to the next; see pipelines/README.md for the syntax"))
        try await withFile("this is garbage, not a pipeline\nat all\n") { file in
            let error = await startError(pipeline: file)
            #expect(error?.description.hasPrefix("\(file): this is not a GStreamer pipeline description") == true, "\(String(describing: error))")
        }
        try await withFile("root:x:0:0:root:/root:/bin/bash ! daemon:x:1:1\n") { file in
            let error = try #require(await startError(pipeline: file))
            #expect(error.description.contains("is not an element name"), "\(error)")
            #expect(!error.description.contains("apt-get install"))
        }
    }

    @Test func anUnknownElementIsNotSentToAPackageGuess() async throws {
        try await withFile("videotestsrc name=source ! colourconvert ! videocrop name=zoom ! tee name=split  split. ! appsink name=preview") { file in
            let error = try #require(await startError(pipeline: file))
            #expect(error == .missingElement(factory: "colourconvert", package: nil, file: file))
            #expect(error.description == "GStreamer has no element \"colourconvert\" (used by \(file)). Check the name "
                + "(gst-inspect-1.0 lists the installed elements); if it comes from a plugin that is not installed, find its package: apt search gstreamer1.0")
        }
        // A known element keeps its one-line fix.
        #expect(CameraError.missingElement(factory: "jifmux", package: ElementPackages.package(for: "jifmux"), file: nil).description
            .hasSuffix("sudo apt-get install gstreamer1.0-plugins-bad"))
    }

    @Test func aSplitThatIsNotATeeNamesTheUsersFile() async throws {
        try await withFile("videotestsrc name=source ! videocrop name=zoom ! queue name=split ! appsink name=preview") { file in
            let error = try #require(await startError(pipeline: file))
            guard case let .badPipelineFile(named, detail) = error else { Issue.record("got \(error)"); return }
            #expect(named == file)
            #expect(detail.hasPrefix("the element named \"split\" is a queue, but it must be a tee"))
        }
    }

    /// (A camera's own sizes are the mode choice's: it takes the nearest mode the camera has. A pipeline without
    /// a mode table, such as the test pattern, is checked against what GStreamer can make at all.)
    @Test func aSizeNothingCanMakeSaysSoWithTheLimits() async throws {
        let error = await startError(pipeline: "test-pattern", width: 99999, height: 99999)
        #expect(error == .negotiationFailed(device: nil, detail: "99999x99999 is not a size a camera or GStreamer can make "
            + "(each side must be 1 to 32768 pixels)"))
        let runtime = try makeTemporaryFolder()  // no camera screen of another test or user serves these captures
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 }
        let pattern = try gstcam(["capture", "--pipeline", "test-pattern", "--width", "99999", "--height", "99999", "-o", "/tmp/never.jpg"],
                                 environment: environment)
        #expect(pattern.status == 1)
        #expect(pattern.error.contains("99999x99999 is not a size a camera or GStreamer can make (each side must be 1 to 32768 pixels)"),
                "\(pattern.error)")
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let camera = try gstcam(["capture", "--device", "/dev/video0", "--width", "99999", "--height", "99999", "-o", folder + "/a.jpg"],
                                environment: environment)
        #expect(!camera.error.contains("could not link") && !camera.error.contains("cannot parse"), "\(camera.error)")
    }
}
