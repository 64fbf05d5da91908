import Foundation
import Testing
@testable import GstCamera

/// What `gstcam record -o NAME` makes of the name: its extension chooses the format (a file is never renamed
/// to another container's extension), and a name that cannot be a video file is refused before the camera
/// opens (no "Mode:" line, which choosing the camera's mode prints).
@Suite(.serialized) struct RecordNameTests {
    private static let camera = ["--device", "/dev/video0", "--width", "320", "--height", "240"]

    private func entries(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// ffprobe's name for the container.
    private func containerName(_ path: String) throws -> String {
        try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=format_name", "-of", "csv=p=0", path])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theExtensionChoosesTheFormatAndANameWithoutOneGetsTheCodecs() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let webm = try gstcam(["record"] + Self.camera + ["--duration", "0.5", "-o", folder + "/by-name.webm"])
        #expect(webm.status == 0, "\(webm.error)")
        #expect(webm.output.contains("Saved \(folder)/by-name.webm "), "\(webm.output)")
        let probed = try ProbedVideo.read(folder + "/by-name.webm")
        #expect(probed.codec == "vp8" && probed.frames == 15, "\(probed)")
        #expect(try containerName(folder + "/by-name.webm").contains("webm"))

        let plain = try gstcam(["record"] + Self.camera + ["--duration", "0.5", "--codec", "vp9", "-o", folder + "/plain"])
        #expect(plain.status == 0, "\(plain.error)")
        #expect(try ProbedVideo.read(folder + "/plain.webm").codec == "vp9")
        #expect(entries(folder) == ["by-name.webm", "plain.webm"])
    }

    @Test(arguments: [
        (["--codec", "h264"], "x.webm", "x.webm: the name asks for WebM, but H.264 is recorded into MP4: name it x.mp4"),
        (["--codec", "vp8"], "x.mp4", "x.mp4: the name asks for MP4, but VP8 is recorded into WebM: name it x.webm"),
        ([], "x.mov", "x.mov: .mov is not a video format gstcam records; name it x.mp4 (H.264), x.webm (VP8 or VP9)"),
    ])
    func aNameThatContradictsTheCodecOrIsAnotherFormatIsAUsageError(_ codec: [String], _ name: String, _ message: String) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try gstcam(["record"] + Self.camera + codec + ["--duration", "0.5", "-o", folder + "/" + name])
        #expect(result.status == 64, "\(result.error)")
        #expect(result.error.contains(message), "\(result.error)")
        #expect(entries(folder).isEmpty, "\(entries(folder))")
    }

    @Test func foldersDevicesPipesAndTakenNamesAreRefusedBeforeTheCameraOpens() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inside = folder + "/videos"
        try FileManager.default.createDirectory(atPath: inside, withIntermediateDirectories: false)
        #expect(mkfifo(folder + "/pipe", 0o600) == 0)
        #expect(FileManager.default.createFile(atPath: folder + "/taken.mp4", contents: Data("mine".utf8)))
        let cases = [
            (inside, "Cannot write \(inside): it is a directory (--dir \(inside) records into it under a new name)."),
            (inside + "/", "it is a directory"),
            (folder + "/pipe", "Cannot write \(folder)/pipe: it is a named pipe, and a video is written to a file"),
            ("/dev/video2", "Cannot write /dev/video2: it is a video device (V4L2), and a video is written to a file"),
            (folder + "/taken.mp4", "\(folder)/taken.mp4 already exists"),
        ]
        for (output, message) in cases {
            let result = try gstcam(["record"] + Self.camera + ["--duration", "0.5", "-o", output])
            #expect(result.status == 1, "\(output): \(result.error)")
            #expect(result.error.contains(message), "\(output): \(result.error)")
            #expect(!result.error.contains("Mode:"), "the camera was opened for \(output): \(result.error)")
        }
        // Nothing beside them: `-o videos` made videos.mp4, `-o videos/` videos/.mp4, `-o pipe` pipe.mp4.
        #expect(entries(folder) == ["pipe", "taken.mp4", "videos"], "\(entries(folder))")
        #expect(entries(inside).isEmpty, "\(entries(inside))")
        #expect(FileManager.default.contents(atPath: folder + "/taken.mp4") == Data("mine".utf8))
        #expect(!FileManager.default.fileExists(atPath: "/dev/video2.mp4"))
    }
}
