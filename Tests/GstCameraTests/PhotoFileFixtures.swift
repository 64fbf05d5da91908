import Foundation
import Glibc
import Testing
@testable import MediaFiles

/// Helpers shared by the photo-file and gallery tests: scratch directories, subprocesses, and real JPEG/PNG
/// files made by GStreamer encoders (so the readers are tested on what capture will actually produce).
enum PhotoFileFixtures {
    struct Output {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// A new empty directory under /tmp; remove it with `removeTree`.
    static func makeDirectory(_ label: String = "photos") -> String {
        var template = Array("/tmp/gstcam-\(label)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed: \(String(cString: strerror(errno)))")
        return String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func removeTree(_ path: String) {
        _ = try? FileManager.default.removeItem(atPath: path)
    }

    /// Runs a program to completion; `environment` replaces the inherited one when given.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        // Output goes to files, not pipes: a pipe nobody reads while waiting could fill up and block the child.
        let scratch = makeDirectory("run")
        defer { removeTree(scratch) }
        let outputPath = scratch + "/stdout", errorPath = scratch + "/stderr"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let error = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        defer { try? output.close(); try? error.close() }
        process.standardOutput = output
        process.standardError = error
        try process.run()
        process.waitUntilExit()
        return Output(status: process.terminationStatus,
                      standardOutput: String(decoding: bytes(outputPath), as: UTF8.self),
                      standardError: String(decoding: bytes(errorPath), as: UTF8.self))
    }

    /// One frame of `videotestsrc` encoded by GStreamer into `path`.
    static func encode(_ encoder: String, width: Int, height: Int, pattern: String = "smpte", to path: String) throws {
        let result = try run("/usr/bin/gst-launch-1.0", [
            "-q", "videotestsrc", "num-buffers=1", "pattern=\(pattern)", "!",
            "video/x-raw,width=\(width),height=\(height)", "!", encoder, "!", "filesink", "location=\(path)",
        ])
        try #require(result.status == 0, "gst-launch-1.0 \(encoder) failed: \(result.standardError)")
    }

    static func makeJPEG(width: Int = 320, height: Int = 240, at path: String) throws {
        try encode("jpegenc", width: width, height: height, to: path)
    }

    static func makePNG(width: Int = 320, height: Int = 240, at path: String) throws {
        try encode("pngenc", width: width, height: height, to: path)
    }

    /// Writes EXIF tags with exiftool, in the given TIFF byte order ("II" or "MM").
    static func tagEXIF(_ path: String, byteOrder: String, tags: [String: String]) throws {
        let result = try run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-ExifByteOrder=\(byteOrder)"]
            + tags.sorted { $0.key < $1.key }.map { "-\($0.key)=\($0.value)" } + [path])
        try #require(result.status == 0, "exiftool failed: \(result.standardError)")
    }

    static func bytes(_ path: String) -> [UInt8] {
        (FileManager.default.contents(atPath: path)).map { [UInt8]($0) } ?? []
    }

    static func write(_ bytes: [UInt8], to path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }

    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// Everything in a directory, hidden names included.
    static func entries(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    /// Sets a file's modification time (seconds since 1970).
    static func setModificationTime(_ path: String, _ seconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    /// A tmpfs of `size` (e.g. "64k") mounted on a new directory, unmounted after `body`. The tests run as
    /// root (scripts/test, CI), which may mount; `options` can add "ro".
    static func withTinyFilesystem<T>(size: String, options: String = "", _ body: (String) throws -> T) throws -> T {
        let directory = makeDirectory("tmpfs")
        defer { _ = umount2(directory, Int32(MNT_DETACH)); removeTree(directory) }
        let data = "size=\(size)" + (options.isEmpty ? "" : "," + options)
        var flags: UInt = 0
        if options.split(separator: ",").contains("ro") { flags |= UInt(MS_RDONLY) }
        let mounted = mount("tmpfs", directory, "tmpfs", flags, data)
        try #require(mounted == 0, "mounting a tmpfs on \(directory) failed (\(String(cString: strerror(errno)))); these tests need root")
        return try body(directory)
    }

    /// A photo environment with a fake HOME and variables, a fixed clock and a fixed UTC offset.
    static func environment(_ variables: [String: String], now: Double = 1_796_045_525.123,
                            utcOffset: Int = 3600) -> PhotoEnvironment {
        PhotoEnvironment(variables: variables, now: { Date(timeIntervalSince1970: now) }, utcOffset: { _ in utcOffset })
    }

    /// The gstcam executable: $GSTCAM_BIN (set by scripts/test) or the directory of this test bundle.
    static var gstcam: String {
        if let bin = ProcessInfo.processInfo.environment["GSTCAM_BIN"], !bin.isEmpty { return bin + "/gstcam" }
        let bundle = Bundle.main.executablePath ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: bundle).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("gstcam").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return "gstcam"
    }
}
