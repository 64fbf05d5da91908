import Foundation
import Glibc
import Testing
@testable import Controls
@testable import LinuxSystem
@testable import Screen
@testable import Session

/// A running `gstcam preview` reached through its socket by a second process (and by the test itself).
@Suite(.serialized) struct RemoteSessionTests {
    /// A preview with no window, on `arguments`' camera, and its socket once it listens.
    private func startPreview(_ arguments: [String]) throws -> (ScreenProcess, String) {
        let preview = try ScreenProcess(["preview", "--sink", "none", "--duration", "20"] + arguments)
        let key = arguments.contains("test-pattern") ? "test-pattern" : "video0"
        let socket = preview.runtime + "/gstcam-\(key).sock"
        #expect(preview.wait { FileManager.default.fileExists(atPath: socket) }, "no socket: \(preview.errors)")
        return (preview, socket)
    }

    @Test func captureWhileAPreviewHoldsTheCameraIsServedByItsSession() throws {
        let (preview, socket) = try startPreview(["--device", "/dev/video0", "--width", "640", "--height", "480"])
        defer { preview.remove() }
        var info = stat()
        #expect(lstat(socket, &info) == 0 && info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8))")
        let started = Date()
        let capture = try runProcess(gstcamBinary, ["capture", "--device", "/dev/video0", "--json"], environment: preview.environment())
        let roundTrip = Date().timeIntervalSince(started)
        #expect(capture.status == 0, "\(capture.error)")
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(capture.output.utf8)) as? [String: Any])
        let path = try #require(reply["path"] as? String)
        #expect(reply["session"] as? String == socket)
        #expect(FileManager.default.fileExists(atPath: path) && path.hasPrefix(preview.photos))
        #expect(try decodeImage(path).width == 640)
        // A whole `gstcam capture` process through the session, not a camera start with warm-up (~1 s).
        #expect(roundTrip < 0.5, "round trip \(roundTrip) s")
        #expect(preview.process.isRunning)
        // Settings go to the session first; ones the protocol cannot carry are refused, not dropped.
        let zoomed = try runProcess(gstcamBinary, ["capture", "--device", "/dev/video0", "--zoom", "2"], environment: preview.environment())
        #expect(zoomed.status == 0 && zoomed.error == "Zoom 2×\n", "\(zoomed.error)")
        let exposure = try runProcess(gstcamBinary, ["capture", "--device", "/dev/video0", "--exposure", "auto"], environment: preview.environment())
        #expect(exposure.status == 1 && exposure.error.contains("--exposure cannot be applied through it"), "\(exposure.error)")
        let shaped = try runProcess(gstcamBinary, ["capture", "--device", "/dev/video0", "--rotate", "180", "--stamp"],
                                    environment: preview.environment())
        #expect(shaped.status == 1 && shaped.error.contains("--rotate/--mirror and --stamp cannot be applied through it"), "\(shaped.error)")
    }

    @Test func malformedRequestsGetErrorRepliesAndTheSessionCarriesOn() throws {
        let (preview, socket) = try startPreview(["--pipeline", "test-pattern"])
        defer { preview.remove() }
        guard case let .connected(client) = CameraRemoteClient.connect(to: socket) else {
            Issue.record("no connection to \(socket)")
            return
        }
        for line in ["garbage", "[1,2]", #"{"command":"explode"}"#, #"{"command":"zoom"}"#, #"{"command":"focus","x":7,"y":0}"#,
                     #"{"command":"capture","path":"relative.jpg"}"#, String(repeating: "{", count: 5000)] {
            let reply = try client.send(line)
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any], "\(reply)")
            #expect(parsed["ok"] as? Bool == false && (parsed["error"] as? String)?.isEmpty == false, "\(line) → \(reply)")
        }
        let zoom = try client.request(["command": "zoom", "factor": 2.0])
        #expect(zoom["message"]?.string == "Zoom 2×")
        let status = try client.request(["command": "status"])
        #expect(status["zoom"]?.double == 2 && status["camera"]?.string == "Test pattern")
        #expect((status["frames"]?.int ?? 0) > 0)
        let torch = try client.send(#"{"command":"torch","on":true}"#)
        #expect(torch == #"{"error":"Torch not available: the test pattern has no camera device","ok":false}"#)
        #expect(preview.process.isRunning)
    }

    @Test func aStaleSocketIsRemovedAndTheCommandOpensTheCameraItself() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // What a crashed preview leaves: a socket file nobody accepts on.
        let stale = folder + "/gstcam-test-pattern.sock"
        do {
            let socket = try UnixSocket.make()
            try socket.bind(to: stale)
        }
        #expect(FileManager.default.fileExists(atPath: stale))
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = folder
        environment["GSTCAM_PHOTO_DIR"] = folder
        let capture = try runProcess(gstcamBinary, ["capture", "--pipeline", "test-pattern", "--warmup", "0"], environment: environment)
        #expect(capture.status == 0, "\(capture.error)")
        #expect(capture.error == "gstcam: removed \(stale), left by a camera screen that is no longer running.\n")
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(capture.output.hasPrefix("Saved \(folder)/IMG_"))
    }

    @Test func sigusr1TakesAPhoto() throws {
        let (preview, _) = try startPreview(["--pipeline", "test-pattern"])
        defer { preview.remove() }
        kill(preview.process.processIdentifier, SIGUSR1)
        #expect(preview.wait(3) { preview.savedPhotos.count == 1 }, "\(preview.errors)")
        #expect(preview.wait(2) { preview.output.contains("Saved \(preview.savedPhotos.first ?? "?")") })
    }

    @Test func theSocketIsRemovedWhenThePreviewEnds() throws {
        let (preview, socket) = try startPreview(["--pipeline", "test-pattern"])
        defer { preview.remove() }
        kill(preview.process.processIdentifier, SIGINT)
        #expect(preview.exitStatus(within: 3) == 130)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test func requestsParse() {
        #expect(RemoteRequest.parse(#"{"command":"capture"}"#) == .success(.action(.capture())))
        #expect(RemoteRequest.parse(#"{"command":"capture","path":"/tmp/a.jpg","overwrite":true}"#)
                == .success(.action(.capture(.file(path: "/tmp/a.jpg", overwrite: true)))))
        #expect(RemoteRequest.parse(#"{"command":"zoom","step":"in"}"#) == .success(.action(.zoomIn)))
        #expect(RemoteRequest.parse(#"{"command":"focus","x":0.25,"y":1}"#) == .success(.action(.focus(at: NormalizedPoint(x: 0.25, y: 1)))))
        #expect(RemoteRequest.parse(#"{"command":"torch","on":false}"#) == .success(.action(.torch(on: false))))
        #expect(RemoteRequest.parse(#"{"command":"zoom","factor":"big"}"#)
                == .failure(RemoteProtocolError("zoom needs \"factor\" (a number, 1 or more; past the camera's largest zoom it is clamped to it) or \"step\" (in, out, reset)")))
    }
}

/// `gstcam preview --send`: zoom, torch and focus for the running screen from the command line.
@Suite(.serialized) struct RemoteSendTests {
    @Test func sendAsksTheRunningScreenAndPrintsItsReply() throws {
        let preview = try ScreenProcess(["preview", "--sink", "none", "--duration", "20", "--device", "/dev/video2"])
        defer { preview.remove() }
        let socket = preview.runtime + "/gstcam-video2.sock"
        #expect(preview.wait { FileManager.default.fileExists(atPath: socket) }, "no socket: \(preview.errors)")
        func send(_ request: String) throws -> ProcessResult {
            try runProcess(gstcamBinary, ["preview", "--device", "/dev/video2", "--send", request], environment: preview.environment())
        }
        let torch = try send(#"{"command":"torch","on":true}"#)
        #expect(torch.status == 0 && torch.output == #"{"message":"Torch on","ok":true}"# + "\n", "\(torch.output) \(torch.error)")
        let ledMode = try runProcess(gstcamBinary, ["get", "--device", "/dev/video2", "led_mode"], environment: preview.environment())
        #expect(ledMode.output.hasPrefix("led_mode=2"))
        let zoom = try send(#"{"command":"zoom","factor":3}"#)
        #expect(zoom.output == #"{"message":"Zoom 3×","ok":true}"# + "\n")
        let bad = try send("nonsense")
        #expect(bad.status == 1 && bad.output.contains(#""ok":false"#))
        let status = try send(#"{"command":"status"}"#)
        #expect(status.output.contains(#""torch":true"#) && status.output.contains(#""zoom":3"#), "\(status.output)")
    }

    @Test func theSocketFollowsACameraSwitch() throws {
        let preview = try ScreenProcess(["preview", "--sink", "none", "--duration", "20", "--device", "/dev/video0"])
        defer { preview.remove() }
        let first = preview.runtime + "/gstcam-video0.sock", second = preview.runtime + "/gstcam-video2.sock"
        #expect(preview.wait { FileManager.default.fileExists(atPath: first) }, "no socket: \(preview.errors)")
        let switched = try runProcess(gstcamBinary, ["preview", "--device", "/dev/video0", "--send", #"{"command":"switch"}"#],
                                      environment: preview.environment())
        #expect(switched.status == 0 && switched.output.contains("/dev/video2"), "\(switched.output) \(switched.error)")
        #expect(FileManager.default.fileExists(atPath: second) && !FileManager.default.fileExists(atPath: first))
        let capture = try runProcess(gstcamBinary, ["capture", "--device", "/dev/video2"], environment: preview.environment())
        #expect(capture.status == 0 && capture.output.hasSuffix("through the running preview\n"), "\(capture.output) \(capture.error)")
    }

    @Test func sendWithNoScreenRunningSaysSo() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = folder
        let result = try runProcess(gstcamBinary, ["preview", "--pipeline", "test-pattern", "--send", #"{"command":"status"}"#],
                                    environment: environment)
        #expect(result.status == 1)
        #expect(result.error.contains("no camera screen is running for this camera (nothing listens on \(folder)/gstcam-test-pattern.sock)"))
    }
}
