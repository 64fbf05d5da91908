import Foundation
import Synchronization
import Testing
@testable import Screen
@testable import Serve
@testable import Session

/// `--publish rtmp://…` (issue 12): the session's shared H.264 pushed to a server that fans it out, here ffmpeg
/// listening on loopback (`-listen 1`). Publishing starts before the server is there and connects once it is
/// (back-off), the server receives the frames, a photo taken meanwhile arrives, and losing the server is
/// reported and retried.
@Suite(.serialized) struct ServePublishTests {
    @Test func publishesToAnRTMPServerThatComesLate() async throws {
        let session = try await startTestPattern(width: 320, height: 240, framerate: 30)
        defer { session.stop() }
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let port = 19000 + Int(getpid() % 900)
        let url = "rtmp://127.0.0.1:\(port)/live/camera"
        let events = Mutex<[String]>([])
        var configuration = ServeConfiguration(rtspPort: nil, httpPort: nil)
        configuration.publish = url
        let server = CameraServer(operator: CameraOperator(session: session), configuration: configuration) { event in
            events.withLock { $0.append(event) }
        }
        try server.start()
        defer { server.stop() }
        try await Task.sleep(for: .seconds(1.5))
        #expect(events.withLock { $0 }.contains { $0.contains("trying again") }, "no server yet: \(events.withLock { $0 })")

        let receiver = try ClientProcess("/usr/bin/ffmpeg", ["-hide_banner", "-nostats", "-listen", "1", "-i", url, "-t", "3",
                                                             "-f", "null", "-progress", "pipe:1", "-"])
        try await Task.sleep(for: .seconds(4))
        let photo = try await session.capturePhoto(to: folder + "/during.jpg")
        #expect(photo.width == 320)
        let result = receiver.finish(within: 15)
        let frames = result.output.split(separator: "\n").compactMap { line -> Int? in
            line.hasPrefix("frame=") ? Int(line.dropFirst(6)) : nil
        }.max() ?? 0
        #expect(frames >= 80, "ffmpeg received \(frames) frames of 90: \(result.error.suffix(400))")
        try await Task.sleep(for: .seconds(1))
        #expect(events.withLock { $0 }.filter { $0.contains("stopped") }.count >= 2, "the server leaving is reported: \(events.withLock { $0 })")
        #expect(session.state == .running)
    }
}
