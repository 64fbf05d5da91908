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
            #"b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 50000 + b"\r\n\r\n""#,            // 50 KB: ours, 431
            #"b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 1000000 + b"\r\n\r\n""#,          // 1 MB: libsoup's, closed
            #"b"GET /api/status HTTP/1.1\r\nHost: x\r\nX-Fine: " + b"a" * 8000 + b"\r\n\r\n""#,  // 8 KB: taken
        ])
        #expect(http.count == 16, "\(http)")
        #expect(http.count > 15 && http[13].contains(" 431 "), "a 50 KB header: 431 Request Header Fields Too Large: \(http)")
        #expect(http.count > 15 && http[14] == "closed", "a 1 MB header: libsoup closes after 100 KiB, no answer: \(http)")
        #expect(http.count > 15 && http[15].contains(" 200 "), "an 8 KB header is taken: \(http)")
        // libsoup refuses an encoded ".." itself (400) and resolves a plain one (/videos/../secret.mp4 is /secret.mp4: 404).
        let expected = ["400", "505", "400", "413", "413", "400", "404", "400", "404", "404"]
        for (answer, status) in zip(http, expected) {
            #expect(answer.hasPrefix("HTTP/1.") && answer.contains(" \(status) "), "expected \(status): \(http)")
        }
        for answer in http.dropFirst(10).prefix(3) {
            #expect(answer == "closed" || answer.contains(" 4"), "too large to read: refused or closed, never served: \(answer)")
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/secret.mp4"), "nothing outside the gallery folders is deleted")

        let rtspAnswers = try send(rtspPort, [
            #"b"GARBAGE\r\n\r\n""#,
            #"b"\x00\x01\xff\xfe\r\n\r\n""#,
            #"b"DESCRIBE rtsp://127.0.0.1/camera RTSP/1.0\r\n\r\n""#,                             // no CSeq
            #"b"DESCRIBE rtsp://127.0.0.1/../../etc/passwd RTSP/1.0\r\nCSeq: 1\r\n\r\n""#,
            #"b"DESCRIBE rtsp://127.0.0.1/camera RTSP/1.0\r\nCSeq: 1\r\nContent-Length: 99999999999\r\n\r\n""#,
            #"b"DESCRIBE rtsp://127.0.0.1/camera RTSP/1.0\r\nCSeq: 1\r\nX-Big: " + b"a" * 200000 + b"\r\n\r\n""#,             // a 200 KB header
            #"b"DESCRIBE rtsp://127.0.0.1/camera RTSP/1.0\r\nCSeq: 1\r\n" + b"X-A: b\r\n" * 125000 + b"\r\n""#,  // 1 MB of headers
            #"b"DESCRIBE rtsp://127.0.0.1/camera RTSP/1.0\r\nCSeq: 1\r\nUser-Agent: " + b"a" * 3000 + b"\r\n\r\n""#,  // 3 KB: taken
        ])
        #expect(rtspAnswers == ["RTSP/1.0 400 Bad Request", "closed", "RTSP/1.0 400 Bad Request", "RTSP/1.0 404 Not Found",
                                "RTSP/1.0 413 Request Entity Too Large", "RTSP/1.0 400 Bad Request", "RTSP/1.0 400 Bad Request",
                                "RTSP/1.0 200 OK"], "\(rtspAnswers)")

        // Still serving: the API answers and a player gets the stream.
        let status = try runProcess("/usr/bin/curl", ["-s", "-m", "10", web + "api/status"], environment: environmentWithoutCameras)
        #expect(status.output.contains(#""state":"running""#), "\(status.output)")
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-timeout", "10000000", "-rtsp_transport", "tcp",
                                                        "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", rtsp],
                                   environment: environmentWithoutCameras)
        #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,160,120", "\(probe.error)")
    }

    /// An RTSP client on raw sockets, for oversized headers (an "X-Padding" line of SIZE bytes). It prints one
    /// line per request: "METHOD SIZE STATUS cseq-echoed" (or "cseq-wrong:…" when the answer's CSeq is not the
    /// request's, "closed" when the server closed the connection without an answer).
    /// - `methods SIZES METHODS`: each method (comma-separated) with each size, on a connection of its own.
    /// - `session SIZES`: DESCRIBE and SETUP (interleaved TCP), then on that session PLAY, GET_PARAMETER and
    ///   TEARDOWN with each size, a 3 KB GET_PARAMETER and PLAY, GET_PARAMETER again while playing, TEARDOWN.
    static let rtspClient = #"""
import socket, sys
port, path, mode, sizes = int(sys.argv[1]), sys.argv[2], sys.argv[3], [int(size) for size in sys.argv[4].split(",")]
base = "rtsp://127.0.0.1:%d/%s" % (port, path)

class Connection:
    def __init__(self):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.pending, self.cseq = b"", 0
    def fill(self):
        data = self.socket.recv(1 << 16)
        if not data: raise EOFError
        self.pending += data
    def response(self):
        while True:
            while len(self.pending) < 4: self.fill()
            if self.pending[:1] == b"$":  # an interleaved RTP or RTCP packet
                size = int.from_bytes(self.pending[2:4], "big")
                while len(self.pending) < 4 + size: self.fill()
                self.pending = self.pending[4 + size:]
                continue
            while b"\r\n\r\n" not in self.pending: self.fill()
            head, _, self.pending = self.pending.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            headers = {line.split(":", 1)[0].strip().lower(): line.split(":", 1)[1].strip() for line in lines[1:] if ":" in line}
            length = int(headers.get("content-length", "0"))
            while len(self.pending) < length: self.fill()
            body, self.pending = self.pending[:length], self.pending[length:]
            return lines[0].split(" ")[1], headers, body.decode("latin-1")
    def request(self, method, url, padding=0, extra=""):
        self.cseq += 1
        head = ("%s %s RTSP/1.0\r\nCSeq: %d\r\n%s" % (method, url, self.cseq, extra)).encode()
        if padding: head += b"X-Padding: " + b"a" * padding + b"\r\n"
        try:
            self.socket.sendall(head + b"\r\n")
            status, headers, body = self.response()
        except (EOFError, ConnectionResetError, BrokenPipeError, socket.timeout):
            print("%s %d closed" % (method, padding), flush=True)
            return None, {}, ""
        echoed = "cseq-echoed" if headers.get("cseq") == str(self.cseq) else "cseq-wrong:%s" % headers.get("cseq")
        print("%s %d %s %s" % (method, padding, status, echoed), flush=True)
        return status, headers, body

if mode == "methods":
    for size in sizes:
        for method in sys.argv[5].split(","):
            connection = Connection()
            extra = "Transport: RTP/AVP/TCP;unicast;interleaved=0-1\r\n" if method == "SETUP" else ""
            connection.request(method, base + ("/stream=0" if method == "SETUP" else ""), size, extra)
            connection.socket.close()
else:
    connection = Connection()
    _, headers, sdp = connection.request("DESCRIBE", base, 0, "Accept: application/sdp\r\n")
    control = [line[len("a=control:"):] for line in sdp.split("\r\n") if line.startswith("a=control:") and line != "a=control:*"][0]
    track = control if control.startswith("rtsp://") else headers.get("content-base", base + "/").rstrip("/") + "/" + control
    _, headers, _ = connection.request("SETUP", track, 0, "Transport: RTP/AVP/TCP;unicast;interleaved=0-1\r\n")
    session = "Session: %s\r\n" % headers["session"].split(";")[0]
    for size in sizes:
        for method in ["PLAY", "GET_PARAMETER", "TEARDOWN"]:
            connection.request(method, base, size, session)
    connection.request("GET_PARAMETER", base, 3000, session)
    connection.request("PLAY", base, 0, session)
    for size in sizes:
        connection.request("GET_PARAMETER", base, size, session)
    connection.request("TEARDOWN", base, 0, session)
"""#

    static let everyMethod = ["OPTIONS", "DESCRIBE", "ANNOUNCE", "SETUP", "PLAY", "PAUSE", "RECORD", "TEARDOWN",
                              "GET_PARAMETER", "SET_PARAMETER"]
    /// Just over the limit (a line the connection keeps 4095 bytes of), and far over it. 1 MB headers cost the
    /// server half a second each to read (gst-rtsp-server reads a header in small pieces), so only the ten
    /// OPTIONS in a row of `oversizedRTSPHeadersAreRefusedOnEveryMethod` are that large.
    static let oversized = [8_000, 200_000]

    private func rtspRequests(_ port: Int, _ mode: String, sizes: [Int], methods: [String] = []) throws -> [String] {
        let result = try runProcess("/usr/bin/python3", ["-c", Self.rtspClient, "\(port)", "camera", mode,
                                                         sizes.map(String.init).joined(separator: ",")]
                                        + (methods.isEmpty ? [] : [methods.joined(separator: ",")]),
                                    environment: environmentWithoutCameras)
        #expect(result.status == 0, "\(result.error)")
        return result.output.split(separator: "\n").map(String.init)
    }

    private func probe(_ url: String) throws -> String {
        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-timeout", "10000000", "-rtsp_transport", "tcp",
                                                        "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", url],
                                   environment: environmentWithoutCameras)
        return probe.output.trimmingCharacters(in: .whitespacesAndNewlines) + probe.error
    }

    /// A header over RTSPHeaderLimit.maxHeaderBytes is refused with 400 (with the request's CSeq) whatever the
    /// method, on a connection of its own or within a playing session; a 3 KB header is taken; ten 1 MB OPTIONS in
    /// a row leave the server serving.
    @Test func oversizedRTSPHeadersAreRefusedOnEveryMethod() async throws {
        try await withRTSPServer { rtsp, port in
            let methods = try rtspRequests(port, "methods", sizes: Self.oversized, methods: Self.everyMethod)
            #expect(methods == Self.oversized.flatMap { size in Self.everyMethod.map { "\($0) \(size) 400 cseq-echoed" } }, "\(methods)")

            let small = try rtspRequests(port, "methods", sizes: [3000], methods: ["OPTIONS", "DESCRIBE"])
            #expect(small == ["OPTIONS 3000 200 cseq-echoed", "DESCRIBE 3000 200 cseq-echoed"], "a 3 KB header is taken: \(small)")

            let playing = try rtspRequests(port, "session", sizes: Self.oversized)
            let refused = Self.oversized.flatMap { size in ["PLAY", "GET_PARAMETER", "TEARDOWN"].map { "\($0) \(size) 400 cseq-echoed" } }
            #expect(playing == ["DESCRIBE 0 200 cseq-echoed", "SETUP 0 200 cseq-echoed"] + refused
                        + ["GET_PARAMETER 3000 200 cseq-echoed", "PLAY 0 200 cseq-echoed"]
                        + Self.oversized.map { "GET_PARAMETER \($0) 400 cseq-echoed" } + ["TEARDOWN 0 200 cseq-echoed"],
                    "\(playing)")

            let options = try rtspRequests(port, "methods", sizes: Array(repeating: 1_000_000, count: 10), methods: ["OPTIONS"])
            #expect(options == Array(repeating: "OPTIONS 1000000 400 cseq-echoed", count: 10), "\(options)")
            #expect(try probe(rtsp) == "h264,160,120", "still serving after ten 1 MB OPTIONS")
        }
    }

    /// With digest credentials, an oversized request is refused as oversized (400), before any authentication
    /// (not 401); a request of ordinary size without credentials still gets 401, and one with them plays.
    @Test func oversizedRTSPHeadersAreRefusedBeforeAuthentication() async throws {
        try await withRTSPServer(credentials: .token("s3cret")) { rtsp, port in
            let methods = try rtspRequests(port, "methods", sizes: Self.oversized, methods: Self.everyMethod)
            #expect(methods == Self.oversized.flatMap { size in Self.everyMethod.map { "\($0) \(size) 400 cseq-echoed" } }, "\(methods)")
            let small = try rtspRequests(port, "methods", sizes: [3000], methods: ["OPTIONS", "DESCRIBE"])
            #expect(small == ["OPTIONS 3000 200 cseq-echoed", "DESCRIBE 3000 401 cseq-echoed"], "3 KB: taken, then authenticated: \(small)")
            #expect(try probe(rtsp).contains("401"), "no credentials")
            #expect(try probe(rtsp.replacingOccurrences(of: "rtsp://", with: "rtsp://token:s3cret@")) == "h264,160,120")
        }
    }

    /// A client that sends one request whose header never ends, as fast as the server reads it, for up to 15 s;
    /// it stops when the server closes the connection.
    static let endlessHeader = #"""
import socket, sys, time
connection = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
connection.sendall(b"OPTIONS rtsp://127.0.0.1/camera RTSP/1.0\r\nCSeq: 1\r\nX-Padding: ")
connection.settimeout(0.2)
connection.sendall(b"a" * 65536)
print("sending", flush=True)
end = time.time() + 15
while time.time() < end:
    try:
        connection.sendall(b"a" * 65536)
    except socket.timeout:
        try:
            if connection.recv(1, socket.MSG_DONTWAIT) == b"":
                break
        except BlockingIOError:
            pass
    except OSError:
        break
"""#

    /// A client sending a header that never ends does not hold other viewers up: the server reads it on a thread
    /// of that client's (gst-rtsp-server reads a header to its end, and ran every client on one thread). Stopping
    /// the server while it sends lets that client go, and no thread of the server's keeps reading.
    @Test func aClientSendingAnEndlessHeaderHoldsNoOtherViewerUp() async throws {
        let socketsBefore = openTCPSockets()
        var endless: ClientProcess?
        defer { _ = endless?.finish(within: 0) }
        try await withRTSPServer { rtsp, port in
            endless = try ClientProcess("/usr/bin/python3", ["-c", Self.endlessHeader, "\(port)"])
            #expect(endless?.waitForOutput("sending", within: 5) == true, "the endless header is being sent")
            Thread.sleep(forTimeInterval: 0.5)
            let started = Date()
            let others = try rtspRequests(port, "methods", sizes: [0], methods: ["OPTIONS", "DESCRIBE"])
            #expect(others == ["OPTIONS 0 200 cseq-echoed", "DESCRIBE 0 200 cseq-echoed"], "\(others)")
            #expect(try probe(rtsp) == "h264,160,120", "a viewer plays meanwhile")
            let waited = Date().timeIntervalSince(started)
            #expect(waited < 5, "other clients waited \(waited) s")
            #expect(endless?.process.isRunning == true, "the endless header was still being sent while the others were served")
        }
        let sender = endless?.finish(within: 3)
        #expect(sender?.status == 0, "the stopped server closed the sender's connection: \(sender?.error ?? "")")
        #expect(openTCPSockets() <= socketsBefore, "TCP sockets of this process: \(socketsBefore) before the server, \(openTCPSockets()) after it stopped")
        let before = processCPUSeconds()
        try await Task.sleep(for: .seconds(1))
        let busy = processCPUSeconds() - before
        #expect(busy < 0.3, "CPU of this process in the second after the server stopped: \(busy) s")
    }

    /// How many of this process's file descriptors are TCP sockets (their inodes listed in /proc/net/tcp and tcp6).
    private func openTCPSockets() -> Int {
        let tcp = ["/proc/net/tcp", "/proc/net/tcp6"].flatMap { table in
            ((try? String(contentsOfFile: table, encoding: .utf8)) ?? "").split(separator: "\n").dropFirst().compactMap { line in
                line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(9).first.map(String.init)
            }
        }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { descriptor in
            guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor),
                  link.hasPrefix("socket:[") else { return false }
            return tcp.contains(String(link.dropFirst("socket:[".count).dropLast()))
        }.count
    }

    /// User and system CPU time of this process so far.
    private func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// A test pattern served over RTSP alone, for `body` with its rtsp:// URL and port; stopped after it.
    private func withRTSPServer(credentials: ServeCredentials? = nil,
                                _ body: (_ rtsp: String, _ port: Int) throws -> Void) async throws {
        let session = try await startTestPattern(width: 160, height: 120)
        defer { session.stop() }
        let server = CameraServer(operator: CameraOperator(session: session), configuration: ServeConfiguration(
            rtspPort: 0, httpPort: nil, credentials: credentials))
        try server.start()
        defer { server.stop() }
        let rtsp = try #require(server.rtspURL)
        let port = try #require(Int(rtsp.split(separator: ":").last?.split(separator: "/").first ?? ""))
        try body(rtsp, port)
    }

    /// A WebSocket client on /webrtc: after the handshake it sends one text message of `size` bytes (masked,
    /// as a browser's; over 60 000 bytes, only the frame header that announces it), then prints the handshake's status, the type of each message the server sends, and
    /// "close CODE" when the server closes; it stops at the server's offer when `size` is small enough.
    static let webSocketClient = #"""
import base64, json, os, socket, struct, sys
port, size = int(sys.argv[1]), int(sys.argv[2])
connection = socket.create_connection(("127.0.0.1", port), timeout=10)
key = base64.b64encode(os.urandom(16)).decode()
connection.sendall(("GET /webrtc HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % key).encode())
pending = b""
def read(count):
    global pending
    while len(pending) < count:
        data = connection.recv(1 << 16)
        if not data: raise EOFError
        pending += data
    out, pending = pending[:count], pending[count:]
    return out
while b"\r\n\r\n" not in pending:
    data = connection.recv(4096)
    if not data: break
    pending += data
head, _, pending = pending.partition(b"\r\n\r\n")
print(head.split(b"\r\n")[0].decode(), flush=True)
payload = b'{"type":"note","text":"' + b"a" * max(0, size - 25) + b'"}'
mask = os.urandom(4)
length = len(payload)
header = bytes([0x81]) + (bytes([0xFF]) + struct.pack(">Q", length) if length > 0xFFFF else
                          bytes([0xFE]) + struct.pack(">H", length) if length >= 126 else bytes([0x80 | length]))
masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
# A message over the limit: its frame header only. The server refuses it on the length that announces; payload
# bytes sent would sit unread when it closes, and the reset that closing sends would lose its close frame.
try:
    connection.sendall(header + mask + (b"" if length > 60000 else masked))
except (BrokenPipeError, ConnectionResetError):
    pass
try:
    while True:
        first, second = read(2)
        count = second & 0x7F
        if count == 126: count = struct.unpack(">H", read(2))[0]
        elif count == 127: count = struct.unpack(">Q", read(8))[0]
        body = read(count)
        if first & 0x0F == 8:
            print("close %d" % struct.unpack(">H", body[:2])[0], flush=True)
            break
        kind = json.loads(body).get("type")
        print(kind, flush=True)
        if kind == "offer" and size < 60000: break
except (EOFError, ConnectionResetError, socket.timeout) as error:
    print("ended: %r" % error, flush=True)
"""#

    /// A WebSocket message larger than signalling needs (100 KB; the limit is 64 KB) closes that socket with
    /// 1009 (message too big); another browser's signalling goes on, and so does the API.
    @Test func anOversizedWebSocketMessageClosesThatSocketOnly() async throws {
        let session = try await startTestPattern(width: 160, height: 120)
        defer { session.stop() }
        let server = CameraServer(operator: CameraOperator(session: session), configuration: ServeConfiguration(rtspPort: nil, httpPort: 0))
        try server.start()
        defer { server.stop() }
        let web = try #require(server.httpURL)
        let port = try #require(Int(web.split(separator: ":").last?.filter(\.isNumber) ?? ""))
        #expect(WebHandler.maxSignallingMessage < 100_000)

        let oversized = try runProcess("/usr/bin/python3", ["-c", Self.webSocketClient, "\(port)", "100000"], environment: environmentWithoutCameras)
        let lines = oversized.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains(" 101 ") == true, "\(oversized.output) \(oversized.error)")
        #expect(lines.last == "close 1009", "closed as too big: \(lines) \(oversized.error)")

        let signalling = try runProcess("/usr/bin/python3", ["-c", Self.webSocketClient, "\(port)", "2000"], environment: environmentWithoutCameras)
        #expect(signalling.output.split(separator: "\n").map(String.init).last == "offer",
                "a 2 KB message is taken and the server offers: \(signalling.output) \(signalling.error)")
        let status = try runProcess("/usr/bin/curl", ["-s", "-m", "10", web + "api/status"], environment: environmentWithoutCameras)
        #expect(status.output.contains(#""state":"running""#), "\(status.output)")
    }
}
