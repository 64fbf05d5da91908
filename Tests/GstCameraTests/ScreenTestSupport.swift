import Foundation
import Testing

/// A `gstcam preview` (or `capture --preview`) running in the background with its own photo folder, runtime
/// folder and virtual camera state, its output going to files the test reads while it runs.
final class ScreenProcess {
    let folder: String
    let photos: String
    let runtime: String
    let process = Process()
    var outputPath: String { folder + "/stdout.txt" }
    var errorPath: String { folder + "/stderr.txt" }

    init(_ arguments: [String], devices: String = "/dev/video0=uvc;/dev/video2=sensor", stdin: FileHandle? = nil) throws {
        folder = try makeTemporaryFolder()
        photos = folder + "/photos"
        runtime = folder + "/run"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        chmod(runtime, 0o700)
        try FileManager.default.createDirectory(atPath: folder + "/vcam", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: gstcamBinary)
        process.arguments = arguments
        process.environment = environment(devices: devices)
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        process.standardInput = stdin ?? FileHandle.nullDevice
        try process.run()
    }

    /// The environment the process runs in, for helpers that must see the same cameras and folders.
    func environment(devices: String = "/dev/video0=uvc;/dev/video2=sensor") -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["VCAM_DEVICES"] = devices
        environment["VCAM_STATE_DIR"] = folder + "/vcam"
        environment["GSTCAM_PHOTO_DIR"] = photos
        environment["XDG_RUNTIME_DIR"] = runtime
        return environment
    }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
    var savedPhotos: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: photos)) ?? []).filter { $0.hasPrefix("IMG_") }.sorted().map { photos + "/" + $0 }
    }

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

    func remove() {
        killAndWait(process)
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// Real X input through the XTEST extension (xdotool), as a person at the window would give it.
func xdotool(_ arguments: String...) throws {
    let result = try runProcess("/usr/bin/xdotool", arguments)
    #expect(result.status == 0, "xdotool \(arguments): \(result.error)")
}

/// The whole X screen as RGB.
func screenshot(into folder: String, name: String = "screen.png") throws -> (width: Int, height: Int, rgb: [UInt8]) {
    let path = folder + "/" + name
    let grab = try runProcess("/usr/bin/import", ["-window", "root", path])
    #expect(grab.status == 0, "\(grab.error)")
    return try decodeImage(path)
}

/// How many pixels in the rectangle are within `tolerance` of `color`.
func countPixels(_ image: (width: Int, height: Int, rgb: [UInt8]), near color: (Int, Int, Int), tolerance: Int,
                 x: Range<Int>, y: Range<Int>) -> Int {
    var count = 0
    for row in y where row < image.height {
        for column in x where column < image.width {
            let offset = (row * image.width + column) * 3
            if abs(Int(image.rgb[offset]) - color.0) <= tolerance, abs(Int(image.rgb[offset + 1]) - color.1) <= tolerance,
               abs(Int(image.rgb[offset + 2]) - color.2) <= tolerance { count += 1 }
        }
    }
    return count
}

func pixel(_ image: (width: Int, height: Int, rgb: [UInt8]), _ x: Int, _ y: Int) -> (Int, Int, Int) {
    let offset = (y * image.width + x) * 3
    return (Int(image.rgb[offset]), Int(image.rgb[offset + 1]), Int(image.rgb[offset + 2]))
}
