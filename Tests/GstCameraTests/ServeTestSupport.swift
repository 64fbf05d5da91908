import Foundation
import Testing
@testable import MediaFiles
@testable import Screen
@testable import Serve
@testable import Session

/// A viewer program running in the background (ffprobe, gst-launch-1.0, chromium) with its output in files,
/// without the virtual camera preloaded.
final class ClientProcess {
    let process = Process()
    let folder: String

    init(_ executable: String, _ arguments: [String]) throws {
        folder = try makeTemporaryFolder()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environmentWithoutCameras
        _ = FileManager.default.createFile(atPath: folder + "/out", contents: nil)
        _ = FileManager.default.createFile(atPath: folder + "/err", contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: folder + "/out")
        process.standardError = FileHandle(forWritingAtPath: folder + "/err")
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits up to `timeout` seconds for the program to print `text`; whether it did.
    func waitForOutput(_ text: String, within timeout: Double) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        repeat {
            if ((try? String(contentsOfFile: folder + "/out", encoding: .utf8)) ?? "").contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < end
        return false
    }

    /// Waits up to `timeout` seconds for the program to end (killing it after that); returns its output.
    func finish(within timeout: Double) -> (status: Int32?, output: String, error: String) {
        let end = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < end { Thread.sleep(forTimeInterval: 0.05) }
        let ended = !process.isRunning
        killAndWait(process)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return (ended ? process.terminationStatus : nil,
                (try? String(contentsOfFile: folder + "/out", encoding: .utf8)) ?? "",
                (try? String(contentsOfFile: folder + "/err", encoding: .utf8)) ?? "")
    }
}

/// An RTSP viewer that reports the timestamp of every frame it receives.
enum RTSPViewer {
    /// ffprobe reading `seconds` of the stream over `transport` (tcp or udp).
    static func ffprobe(_ url: String, transport: String, seconds: Int) throws -> ClientProcess {
        try ClientProcess("/usr/bin/ffprobe", ["-v", "error", "-timeout", "10000000", "-rtsp_transport", transport,
                                               "-read_intervals", "%+\(seconds)", "-select_streams", "v",
                                               "-show_entries", "packet=pts_time", "-of", "csv=p=0", url])
    }

    /// gst-launch's rtspsrc over `protocol` (tcp or udp), ending after `frames` frames (or running until killed).
    static func gstLaunch(_ url: String, protocol: String, frames: Int?) throws -> ClientProcess {
        try ClientProcess("/usr/bin/gst-launch-1.0", ["-v", "rtspsrc", "location=\(url)", "protocols=\(`protocol`)", "latency=0",
                                                      "!", "rtph264depay", "!", "identity"] + (frames.map { ["eos-after=\($0)"] } ?? [])
                                                      + ["!", "fakesink", "silent=false"])
    }

    /// The distinct frame timestamps (seconds) in an ffprobe or gst-launch output.
    static func timestamps(_ output: String) -> [Double] {
        var seen = Set<Double>()
        for line in output.split(separator: "\n") {
            if line.contains("last-message = chain"), let range = line.range(of: "pts: ") {
                // gst-launch: "pts: 0:00:01.234567890"
                let text = line[range.upperBound...].prefix { $0 != "," }
                let parts = text.split(separator: ":").compactMap { Double($0) }
                if parts.count == 3 { seen.insert(parts[0] * 3600 + parts[1] * 60 + parts[2]) }
            } else if let value = Double(line.split(separator: ",").first ?? "") {
                seen.insert(value)  // ffprobe: "1.234567" (a trailing comma on packets with side data)
            }
        }
        return seen.sorted()
    }

    /// Frames received out of the frames sent between the first and the last one received, at `fps`.
    static func share(_ timestamps: [Double], fps: Double) -> Double {
        guard let first = timestamps.first, let last = timestamps.last, last > first else { return 0 }
        return Double(timestamps.count) / ((last - first) * fps + 1)
    }

    /// Waits for each viewer to end (`within` seconds) and expects it to have received at least `minimumFrames`
    /// frames and ≥ 95 % of those sent (at 30 fps) between its first and last one.
    static func expectEachReceivedTheStream(_ viewers: [(String, ClientProcess)], minimumFrames: Int, within seconds: Double) {
        for (name, viewer) in viewers {
            let result = viewer.finish(within: seconds)
            let timestamps = Self.timestamps(result.output)
            let share = Self.share(timestamps, fps: 30)
            #expect(timestamps.count >= minimumFrames, "\(name) received \(timestamps.count) frames: \(result.error.suffix(500))")
            #expect(share >= 0.95, "\(name) received \(timestamps.count) frames, \(Int(share * 100)) % of those sent meanwhile")
        }
    }
}

extension ScreenProcess {
    /// The address `gstcam serve --json` announces in its "serving" line, starting `prefix` (e.g.
    /// "http://127.0.0.1:", "rtsp://127.0.0.1:"), once it is serving (10 s at most).
    func servingURL(_ prefix: String) throws -> String {
        #expect(wait(10) { output.contains(#""event":"serving""#) }, "\(errors)")
        let line = try #require(output.split(separator: "\n").first { $0.contains(#""event":"serving""#) })
        return try #require(line.split(separator: "\"").first { $0.hasPrefix(prefix) }).description
    }
}

