import Foundation
import Testing
@testable import Controls

/// The virtual cameras the test process runs with (scripts/test preloads libVirtualCamera.so and sets
/// VCAM_DEVICES, e.g. "/dev/video0=uvc;/dev/video2=sensor;/dev/video4=basic"), and subprocess helpers.
enum VirtualCameras {
    /// Path → profile, from VCAM_DEVICES (unset means the virtual camera's default, one uvc device at /dev/video0).
    static var devices: [(path: String, profile: String)] {
        let spec = ProcessInfo.processInfo.environment["VCAM_DEVICES"] ?? "/dev/video0=uvc"
        return spec.split(separator: ";").compactMap { entry in
            let parts = entry.split(separator: "=", maxSplits: 1)
            guard let path = parts.first else { return nil }
            let profile = parts.count > 1 ? String(parts[1].split(separator: ",").first ?? "uvc") : "uvc"
            return (String(path).trimmingCharacters(in: .whitespaces), profile)
        }
    }

    /// The fourccs a virtual device is configured with (its `formats=` option), nil when it keeps its
    /// profile's own (which include YUYV and NV12, except the webcam's: YUYV and MJPG).
    static func configuredFormats(of path: String) -> Set<String>? {
        option("formats", of: path).map { Set($0.split(separator: "+").map { $0 == "MJPEG" ? "MJPG" : String($0) }) }
    }

    /// The `sizes=` option of a virtual device ("320x240+1280x720"), nil when it keeps its profile's sizes
    /// (which include 640x480).
    static func configuredSizes(of path: String) -> [String]? {
        option("sizes", of: path).map { $0.split(separator: "+").map(String.init) }
    }

    private static func option(_ name: String, of path: String) -> String? {
        let spec = ProcessInfo.processInfo.environment["VCAM_DEVICES"] ?? "/dev/video0=uvc"
        for entry in spec.split(separator: ";") where entry.hasPrefix(path + "=") {
            for option in entry.split(separator: ",").dropFirst() where option.hasPrefix(name + "=") {
                return String(option.dropFirst(name.count + 1))
            }
        }
        return nil
    }

    /// The profile of the virtual device at `path` ("uvc", "webcam", "vivid", …).
    static func profile(of path: String) -> String? { devices.first { $0.path == path }?.profile }

    /// Whether `reported` fourccs are what the virtual device at `path` was configured with.
    static func formatsMatch(_ reported: [String], _ path: String) -> Bool {
        if let configured = configuredFormats(of: path) { return Set(reported) == configured }
        // The webcam profile is a USB webcam: raw YUYV and Motion-JPEG only.
        if devices.first(where: { $0.path == path })?.profile == "webcam" { return Set(reported) == ["YUYV", "MJPG"] }
        return Set(reported).isSuperset(of: ["YUYV", "NV12"])
    }

    /// The first virtual device with this profile; fails the test (never skips it) when there is none.
    static func path(profile: String) throws -> String {
        try #require(devices.first { $0.profile == profile }?.path,
                     "VCAM_DEVICES (\(ProcessInfo.processInfo.environment["VCAM_DEVICES"] ?? "unset")) has no \(profile) device; run the tests with scripts/test")
    }

    /// Puts every writable number, switch and menu control of `path` back to its default, so that tests which
    /// look at pixels (brightness, torch, zoom) are not affected by what a control test left behind.
    static func resetControls(_ path: String) {
        guard let controls = try? CameraControls(devicePath: path), let all = try? controls.all() else { return }
        for control in all where control.isWritable && [.integer, .boolean, .menu, .bitmask].contains(control.type)
            && control.value?.integer != control.defaultValue {
            _ = try? controls.set(control.name, to: .integer(control.defaultValue))
        }
        // The region of interest back to the whole frame.
        if let roi = try? controls.query(id: ControlID.regionOfInterestRectangle),
           case let .success(.rectangle(whole)) = controls.device.readControl(roi, which: .maximum) {
            _ = try? controls.set("region_of_interest_rectangle", to: .rectangle(whole))
        }
    }

    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The directory holding the built gstcam (GSTCAM_BIN from scripts/test, else next to the test bundle).
    static var binDirectory: String {
        if let bin = ProcessInfo.processInfo.environment["GSTCAM_BIN"] { return bin }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("gstcam").path) {
            url.deleteLastPathComponent()
        }
        return url.path
    }

    /// Runs the built `gstcam` with these arguments (the environment, virtual camera included, is inherited).
    static func gstcam(_ arguments: String...) throws -> Output {
        try run(binDirectory + "/gstcam", arguments)
    }

    /// Runs v4l2-ctl, which reaches the same virtual devices through the inherited LD_PRELOAD.
    static func v4l2ctl(_ arguments: String...) throws -> Output {
        try run("/usr/bin/v4l2-ctl", arguments)
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // stderr goes to a file so that neither stream can fill a pipe and block the child while we read the other.
        let errorPath = NSTemporaryDirectory() + "gstcam-test-\(UUID().uuidString).err"
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        let errorFile = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorFile
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try errorFile.close()
        let errorData = FileManager.default.contents(atPath: errorPath) ?? Data()
        return Output(status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// Runs a program under the virtual camera with a private state directory: its control values start from the
    /// defaults and changes stay invisible to the test process and to other tests.
    struct Isolated {
        let stateDirectory: String
        var devices = "/dev/video0=uvc;/dev/video2=sensor;/dev/video4=basic"

        init(files: [String: String] = [:]) throws {
            stateDirectory = NSTemporaryDirectory() + "gstcam-vcam-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
            for (path, content) in files {
                let url = URL(fileURLWithPath: stateDirectory + "/" + path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try content.write(to: url, atomically: false, encoding: .utf8)
            }
        }

        func gstcam(_ arguments: String...) throws -> Output {
            try run(binDirectory + "/gstcam", arguments)
        }

        func v4l2ctl(_ arguments: String...) throws -> Output {
            try run("/usr/bin/v4l2-ctl", arguments)
        }

        func run(_ executable: String, _ arguments: [String]) throws -> Output {
            try VirtualCameras.run("/usr/bin/env", ["VCAM_DEVICES=\(devices)", "VCAM_STATE_DIR=\(stateDirectory)", executable] + arguments)
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: stateDirectory)
        }
    }
}
