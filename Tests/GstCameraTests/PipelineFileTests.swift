import Foundation
import Testing
@testable import CameraErrors
@testable import GStreamer
@testable import PipelineFiles
@testable import Session

@Suite struct PipelineFileTests {
    private func write(_ text: String) throws -> (folder: String, file: String) {
        let folder = try makeTemporaryFolder()
        let file = folder + "/custom.pipeline"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return (folder, file)
    }

    private func startError(_ text: String) async throws -> (CameraError?, String) {
        let (folder, file) = try write(text)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            let session = try CameraSession(configuration: CameraConfiguration(pipeline: file, width: 160, height: 120))
            try await session.start()
            session.stop()
            return (nil, file)
        } catch let error as CameraError {
            return (error, file)
        }
    }

    @Test func syntaxErrorNamesTheFile() async throws {
        let (error, file) = try await startError("videotestsrc name=source ! ! tee name=split")
        guard case let .badPipelineFile(errorFile, detail) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(errorFile == file)
        #expect(detail.contains("cannot parse"))
        #expect(error!.description.hasPrefix(file + ": "))
    }

    @Test func missingRequiredNameIsListedWithItsPurpose() async throws {
        let (error, file) = try await startError("""
            videotestsrc name=source is-live=true ! videoscale ! tee name=split
            split. ! queue ! fakesink
            """)
        #expect(error == .missingPipelineElement(file: file, name: "zoom", purpose: "the videocrop that does digital zoom"))
        #expect(error!.description.contains("has no element named \"zoom\""))
    }

    @Test func missingFactoryNamesTheDebianPackage() async throws {
        let (error, file) = try await startError("""
            videotestsrc name=source ! nosuchelementfactory ! videocrop name=zoom ! tee name=split
            split. ! queue ! appsink name=preview
            """)
        #expect(error == .missingElement(factory: "nosuchelementfactory", package: nil, file: file))
    }

    @Test func knownFactoryMapsToItsPackage() {
        #expect(ElementPackages.package(for: "v4l2src") == "gstreamer1.0-plugins-good")
        #expect(ElementPackages.package(for: "jifmux") == "gstreamer1.0-plugins-bad")
        #expect(ElementPackages.package(for: "xvimagesink") == "gstreamer1.0-x")
    }

    @Test func unknownPlaceholderIsRejectedBeforeStarting() throws {
        let (folder, file) = try write("videotestsrc name=source pattern=${pattern} ! tee name=split")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: CameraError.unknownPipelineParameter(file: file, name: "pattern")) {
            _ = try CameraSession(configuration: CameraConfiguration(pipeline: file))
        }
    }

    @Test func missingFileSaysSo() {
        #expect(throws: CameraError.badPipelineFile(file: "/nonexistent/x.pipeline", detail: "the file does not exist")) {
            _ = try CameraSession(configuration: CameraConfiguration(pipeline: "/nonexistent/x.pipeline"))
        }
    }

    @Test func substitutionEscapesQuotesAndCommentsAreDropped() throws {
        let (folder, file) = try write("# a comment\nv4l2src device=\"${device}\"\n  # another\n  ! fakesink")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipeline = try PipelineFile.load(file)
        #expect(pipeline.placeholders == ["device"])
        #expect(try pipeline.description(with: ["device": "/dev/my \"cam\""]) == "v4l2src device=\"/dev/my \\\"cam\\\"\"\n  ! fakesink")
    }

    @Test func shippedPipelinesAllParseAndHaveTheContractNames() throws {
        let folder = try PipelineDirectory.find()
        for name in ["default", "mjpeg", "test-pattern"] {
            let file = try PipelineFile.load(name)
            #expect(file.path == folder + "/\(name).pipeline")
            let description = try file.description(with: ["device": "/dev/video0", "width": "640", "height": "480", "framerate": "30/1", "format": "YUY2"])
            let pipeline = try PipelineParser.parsePipeline(description, file: file.path)
            for (element, _) in CameraSession.requiredElements {
                #expect(pipeline.child(named: element) != nil, "\(name) lacks \(element)")
            }
        }
    }
}
