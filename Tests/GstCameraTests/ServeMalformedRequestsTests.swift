import Foundation
import Testing
@testable import MediaFiles
@testable import Screen
@testable import Serve
@testable import Session

/// Malformed, oversized and path-traversing requests to `gstcam serve` (issue 12), sent on raw sockets: each is
/// refused (HTTP 4xx/505, RTSP 400/404/413, or the connection closed without an answer for headers too large
/// to read) and the servers keep serving the camera afterwards.
@Suite(.serialized) struct ServeMalformedRequestsTests {
    /// Sends each payload (a Python bytes literal) on its own connection and prints the first line of the
    /// answer, or "closed" when the server closed (or reset) the connection without one.
    static let client = #"""
import socket, sys
port = int(sys.argv[1])
for payload in sys.argv[2:]:
    data = eval(payload)
    connection = socket.create_connection(("127.0.0.1", port), timeout=5)
    answer = b""
    try:
        connection.sendall(data)
        while b"\r\n" not in answer:
            chunk = connection.recv(4096)
            if not chunk: break
            answer += chunk
    except (ConnectionResetError, BrokenPipeError, socket.timeout):
        pass
    connection.close()
    print(answer.split(b"\r\n")[0].decode("latin-1") or "closed", flush=True)
"""#

    private func send(_ port: Int, _ payloads: [String]) throws -> [String] {
        let result = try runProcess("/usr/bin/python3", ["-c", Self.client, "\(port)"] + payloads, environment: environmentWithoutCameras)
        #expect(result.status == 0, "\(result.error)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test func malformedAndOversizedRequestsAreRefusedAndServingGoesOn() async throws {
        let session = try await startTestPattern(width: 160, height: 120)
        defer { session.stop() }
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photos = folder + "/photos", videos = folder + "/videos"
        for directory in [photos, videos] { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        #expect(FileManager.default.createFile(atPath: folder + "/secret.mp4", contents: Data("secret".utf8)))
        let cameraOperator = CameraOperator(session: session, library: PhotoLibrary(directory: photos), videos: VideoLibrary(directory: videos))
        let server = CameraServer(operator: cameraOperator, configuration: ServeConfiguration(rtspPort: 0, httpPort: 0))
        try server.start()
        defer { server.stop() }
        let web = try #require(server.httpURL), rtsp = try #require(server.rtspURL)
        let webPort = try #require(Int(web.split(separator: ":").last?.filter(\.isNumber) ?? ""))
        let rtspPort = try #require(Int(rtsp.split(separator: ":").last?.split(separator: "/").first ?? ""))

        let http = try send(webPort, [
            #"b"GARBAGE\r\n\r\n""#,
            #"b"GET / HTTP/9.9\r\n\r\n""#,
            #"b"GET /api/status HTTP/1.1\r\n\r\n""#,                                              // no Host
            #"b"POST /api/photo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000000\r\n\r\n""#,  // a body of 100 GB
            #"b"POST /api/photo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n""#,
            #"b"GET /videos/..%2Fsecret.mp4 HTTP/1.1\r\nHost: x\r\n\r\n""#,
            #"b"GET /videos/../secret.mp4 HTTP/1.1\r\nHost: x\r\n\r\n""#,
            #"b"DELETE /videos/%2E%2E%2Fsecret.mp4 HTTP/1.1\r\nHost: x\r\n\r\n""#,
            #"b"GET /photos/%2Fetc%2Fpasswd HTTP/1.1\r\nHost: x\r\n\r\n""#,
            #"b"GET /api/status?camera=..%2F..%2Fetc HTTP/1.1\r\nHost: x\r\n\r\n""#,
            #"b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 300000 + b"\r\n\r\n""#,           // a 300 KB header
            #"b"GET /" + b"a" * 200000 + b" HTTP/1.1\r\nHost: x\r\n\r\n""#,                       // a 200 KB URL
            #"b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-A: b\r\n" * 50000 + b"\r\n""#,              // 50 000 headers
        ])
        #expect(http.count == 13, "\(http)")
        // libsoup refuses an encoded ".." itself (400) and resolves a plain one (/videos/../secret.mp4 is /secret.mp4: 404).
        let expected = ["400", "505", "400", "413", "413", "400", "404", "400", "404", "404"]
        for (answer, status) in zip(http, expected) {
            #expect(answer.hasPrefix("HTTP/1.") && answer.contains(" \(status) "), "expected \(status): \(http)")
        }
        for answer in http.dropFirst(10) {
            #expect(answer == "closed" || answer.contains(" 4"), "too large to read: refused or closed, never served: \(answer)")
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/secret.mp4"), "nothing outside the gallery folders is deleted")

        let rtspAnswers = try send(rtspPort, [
            #"b"GARBAGE\r\n\r\n""#,
            #"b"\x00\x01\xff\xfe\r\n\r\n""#,
            #"b"DESCRIBE rtsp://127.0.0.1/camera RTSP/1.0\r\n\r\n""#,                             // no CSeq
            #"b"DESCRIBE rtsp://127.0.0.1/../../etc/passwd RTSP/1.0\r\nCSeq: 1\r\n\r\n""#,
            #"b"DESCRIBE rtsp://127.0.0.1/camera RTSP/1.0\r\nCSeq: 1\r\nContent-Length: 99999999999\r\n\r\n""#,
        ])
        #expect(rtspAnswers == ["RTSP/1.0 400 Bad Request", "closed", "RTSP/1.0 400 Bad Request", "RTSP/1.0 404 Not Found",
                                "RTSP/1.0 413 Request Entity Too Large"], "\(rtspAnswers)")

        // Still serving: the API answers and a player gets the stream.
        let status = try runProcess("/usr/bin/curl", ["-s", "-m", "10", web + "api/status"], environment: environmentWithoutCameras)
        #expect(status.output.contains(#""state":"running""#), "\(status.output)")
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-timeout", "10000000", "-rtsp_transport", "tcp",
                                                        "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", rtsp],
                                   environment: environmentWithoutCameras)
        #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,160,120", "\(probe.error)")
    }
}
