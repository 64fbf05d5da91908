import Foundation
import Testing
import Cameras
@testable import Session
@testable import V4L2

/// A fresh temporary folder, removed by the caller's defer.
func makeTemporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "gstcam-tests-" + UUID().uuidString
    // 0700 as mkdtemp makes them: tests use these as XDG_RUNTIME_DIR, which gstcam trusts only when private.
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return path
}

/// The environment for a gstcam process that sees only `devices` (a `VCAM_DEVICES` list), as virtual cameras of
/// its own: their state under `folder`/vcam (no other test's camera is busy or changed) and `folder` as its runtime
/// folder (no other camera screen answers it).
func privateVirtualCameras(_ devices: String, in folder: String) throws -> [String: String] {
    try FileManager.default.createDirectory(atPath: folder + "/vcam", withIntermediateDirectories: true)
    var environment = ProcessInfo.processInfo.environment
    environment["VCAM_DEVICES"] = devices
    environment["VCAM_STATE_DIR"] = folder + "/vcam"
    environment["XDG_RUNTIME_DIR"] = folder
    return environment
}

/// A running session on the test pattern at the given size.
func startTestPattern(width: Int = 320, height: Int = 240, framerate: FrameRate = 30) async throws -> CameraSession {
    let session = try CameraSession(configuration: CameraConfiguration(
        pipeline: "test-pattern", width: width, height: height, framerate: framerate))
    try await session.start()
    return session
}

/// A running session on a (virtual) camera at the given size.
func startCamera(_ device: String, width: Int = 640, height: Int = 480) async throws -> CameraSession {
    let session = try CameraSession(configuration: CameraConfiguration(device: device, width: width, height: height))
    try await session.start()
    return session
}

/// A running session on a (virtual) camera in the mode `request` chooses, as the CLI starts one: its pipeline then
/// names that mode's format and rate, not every raw one.
func startCamera(_ device: String, choosing request: ModeRequest) async throws -> CameraSession {
    let choice = try CameraConfiguration(device: device).choosingMode(request, keepPipeline: false)
    let session = try CameraSession(configuration: choice.configuration)
    try await session.start()
    return session
}

/// The caps that the capsfilter `name` in the session's running pipeline asks for (nil without either).
func capsfilterCaps(_ name: String, of session: CameraSession) -> String? {
    session.shared.withLock { $0.pipeline?.pipeline.child(named: name)?.caps("caps") }
}

/// An image as one frame of packed RGB, row by row.
typealias DecodedImage = (width: Int, height: Int, rgb: [UInt8])

/// One photo from a session started with `configuration` (stopped again), saved to `path` and decoded.
func decodedPhoto(_ configuration: CameraConfiguration, to path: String) async throws -> DecodedImage {
    let session = try CameraSession(configuration: configuration)
    try await session.start()
    defer { session.stop() }
    return try decodeImage(try await session.capturePhoto(to: path).path)
}

/// Decodes an image file with GStreamer (jpegdec/pngdec through decodebin) into one RGB frame.
func decodeImage(_ path: String) throws -> DecodedImage {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let raw = folder + "/frame.rgb"
    let caps = folder + "/caps.txt"
    let result = try runProcess("/usr/bin/gst-launch-1.0", ["-q", "filesrc", "location=\(path)", "!", "decodebin", "!",
                                 "videoconvert", "!", "video/x-raw,format=RGB", "!", "identity", "silent=false", "!",
                                 "filesink", "location=\(raw)"])
    guard result.status == 0 else { throw DecodeError(message: "gst-launch could not decode \(path): \(result.error)") }
    _ = caps
    let probe = try runProcess("/usr/bin/gst-discoverer-1.0", [path])
    let (width, height) = parseDimensions(probe.output)
    return (width, height, Array(FileManager.default.contents(atPath: raw) ?? Data()))
}

struct DecodeError: Error, CustomStringConvertible { let message: String; var description: String { message } }

private func parseDimensions(_ text: String) -> (Int, Int) {
    var width = 0, height = 0
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2 else { continue }
        if parts[0] == "Width" { width = Int(parts[1]) ?? 0 }
        if parts[0] == "Height" { height = Int(parts[1]) ?? 0 }
    }
    return (width, height)
}

struct ProcessResult {
    let status: Int32
    let output: String
    let error: String
}

/// Runs a program to completion, collecting its output.
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                input: String? = nil) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes fully before waiting, so a chatty child cannot block on a full pipe.
    let group = DispatchGroup()
    nonisolated(unsafe) var errorData = Data()
    group.enter()
    DispatchQueue.global().async { errorData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    let outputData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                         error: String(decoding: errorData, as: UTF8.self))
}

/// The built gstcam binary: $GSTCAM_BIN (set by scripts/test) or the debug build next to the sources.
let gstcamBinary: String = {
    if let folder = ProcessInfo.processInfo.environment["GSTCAM_BIN"] { return folder + "/gstcam" }
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return checkout.appendingPathComponent(".build/debug/gstcam").path
}()

/// The environment without the virtual camera: a machine with no camera at all.
var environmentWithoutCameras: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["LD_PRELOAD"] = nil
    return environment
}

/// Runs gstcam with `arguments`.
func gstcam(_ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult {
    try runProcess(gstcamBinary, arguments, environment: environment)
}

/// Ends a helper process for sure. Children spawned from Swift's concurrency threads inherit their blocked
/// signal mask, so SIGTERM may never arrive; SIGKILL cannot be blocked.
func killAndWait(_ process: Process) {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
}

/// What this process's open descriptors point at, counted by kind, for leak messages.
func describeDescriptors() -> String {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    var kinds: [String: Int] = [:]
    for entry in entries {
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry)) ?? "?"
        let kind = target.hasPrefix("/") ? target : String(target.prefix { $0 != ":" && $0 != "[" })
        kinds[kind, default: 0] += 1
    }
    return kinds.sorted { $0.value > $1.value }.prefix(6).map { "\($0.key)×\($0.value)" }.joined(separator: ", ")
}

/// This process's resident memory (VmRSS) in kilobytes.
func residentKilobytes() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "") ?? 0
}

/// gstcam running in the background, its output going to files a test reads while it runs.
class BackgroundGstcam {
    let folder: String
    let process = Process()
    var outputPath: String { folder + "/stdout.txt" }
    var errorPath: String { folder + "/stderr.txt" }

    /// Starts gstcam; its files go to `folder` (a new temporary folder when nil).
    init(_ arguments: [String], environment: [String: String]? = nil, stdin: FileHandle? = nil, folder: String? = nil) throws {
        self.folder = try folder ?? makeTemporaryFolder()
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: gstcamBinary)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        process.standardInput = stdin ?? FileHandle.nullDevice
        try process.run()
    }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Waits up to `timeout` seconds for `condition`, polling every 50 ms.
    @discardableResult
    func wait(_ timeout: Double = 5, until condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }

    /// Waits for the process to end on its own; kills it after `timeout` seconds. Returns its exit status.
    func exitStatus(within timeout: Double = 5) -> Int32? {
        let ended = wait(timeout) { !process.isRunning }
        if !ended { killAndWait(process); return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Ends the process for sure and removes its folder.
    func remove() {
        killAndWait(process)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// `gstcam record --pre …` (its `arguments`, `--json` added) into `path`: once it says it is waiting, `armedFor`
    /// seconds with no file, then SIGUSR2, and it must end by itself with status 0 within `within` seconds.
    static func recordPreRolled(_ arguments: [String], path: String, armedFor seconds: Double, within: Double = 10,
                                environment: [String: String]? = nil) throws {
        let recorder = try BackgroundGstcam(["record"] + arguments + ["-o", path, "--json"], environment: environment)
        defer { recorder.remove() }
        #expect(recorder.wait(10) { recorder.output.contains(#""event":"waiting""#) }, "\(recorder.errors)")
        Thread.sleep(forTimeInterval: seconds)
        #expect(!FileManager.default.fileExists(atPath: path), "a file before SIGUSR2")
        kill(recorder.process.processIdentifier, SIGUSR2)
        #expect(recorder.exitStatus(within: within) == 0, "\(recorder.errors)")
    }
}
