import Foundation
import Glibc
import Testing
@testable import LinuxSystem
@testable import MediaFiles
@testable import Screen

/// The camera screen's socket trusts no one (issue 16): wrong types and impossible values are refused with an
/// error reply, folders are never created for a request, silent or empty connections block no one, and a
/// client uses only a socket in this user's private folder.
@Suite(.serialized) struct RemoteHardeningTests {
    private func parseError(_ line: String) -> String? {
        if case let .failure(error) = RemoteRequest.parse(line) { return error.description }
        return nil
    }

    @Test func fieldsOfTheWrongTypeAndImpossibleZoomsAreRefused() {
        #expect(parseError(#"{"command":"capture","path":12}"#) == #""path" must be a string: an absolute file path"#)
        #expect(parseError(#"{"command":"capture","directory":[]}"#) == #""directory" must be a string: an absolute folder path"#)
        #expect(parseError(#"{"command":"capture","path":"/tmp/a.jpg","overwrite":"yes"}"#) == #""overwrite" must be true or false"#)
        #expect(parseError(#"{"command":"capture","path":"/tmp/a.jpg","directory":"/tmp"}"#) != nil)
        #expect(parseError(#"{"command":"torch","on":1}"#) == #""on" must be true or false (or left out to toggle)"#)
        for factor in ["-1", "0", "0.5", "1e999", "true"] {
            #expect(parseError(#"{"command":"zoom","factor":\#(factor)}"#) != nil, "factor \(factor) accepted")
        }
        #expect(parseError(#"{"command":"zoom","factor":0}"#) == #"zoom "factor" must be 1 (no zoom) or more, like --zoom; got 0.0"#)
        #expect(RemoteRequest.parse(#"{"command":"zoom","factor":1}"#) == .success(.action(.zoom(factor: 1))))
        #expect(RemoteRequest.parse(#"{"command":"capture","path":null}"#) == .success(.action(.capture())))
    }

    @Test func aDirectoryMustExistOrBeTheGalleryAndIsNeverCreated() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let missing = folder + "/made/by/request"
        let error = try #require(parseError(#"{"command":"capture","directory":"\#(missing)"}"#))
        #expect(error.hasPrefix("\"directory\" \(missing) does not exist; the camera screen saves only into existing folders"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/made"))
        #expect(RemoteRequest.parse(#"{"command":"capture","directory":"\#(folder)"}"#) == .success(.action(.capture(.folder(folder)))))
        #expect(parseError(#"{"command":"capture","directory":"/etc/passwd"}"#) == "\"directory\" /etc/passwd is not a folder")
        let gallery = PhotoLibrary().directory
        #expect(RemoteRequest.parse(#"{"command":"capture","directory":"\#(gallery)"}"#) == .success(.action(.capture(.folder(gallery)))))
    }

    /// A server with a stand-in session that answers every action at once.
    private func startServer(in folder: String) throws -> CameraRemoteServer {
        let status = CameraOperator.Status(camera: "Stand-in", device: nil, width: 1, height: 1, framesPerSecond: 0,
                                           zoom: 1, torch: nil, focus: nil, frames: 0)
        return try CameraRemoteServer.start(path: folder + "/gstcam-standin.sock", status: { status },
                                            perform: { action in CameraActionOutcome(message: "did \(action)") })
    }

    private func connectRaw(_ path: String) throws -> UnixSocket {
        let socket = try UnixSocket.make()
        try socket.connect(to: path)
        return socket
    }

    @Test func anEmptyLineGetsAnErrorReplyAndTheConnectionCarriesOn() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try startServer(in: folder)
        defer { server.stop() }
        guard case let .connected(client) = CameraRemoteClient.connect(to: server.path) else {
            Issue.record("no connection")
            return
        }
        client.setReceiveTimeoutForTests(seconds: 5)
        let empty = try client.send("")
        #expect(empty.contains(#""ok":false"#) && empty.contains("empty request"), "\(empty)")
        let blank = try client.send("   ")
        #expect(blank.contains(#""ok":false"#))
        #expect(try client.request(["command": "status"])["camera"]?.string == "Stand-in")
    }

    @Test func silentConnectionsDoNotKeepOthersWaiting() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try startServer(in: folder)
        defer { server.stop() }
        // More clients that connect and say nothing than the server serves at once (the fault run locked everyone
        // out with 16): the one silent longest makes room for each newcomer.
        let silent = try (0..<(CameraRemoteServer.maximumConnections + 16)).map { _ in try connectRaw(server.path) }
        let started = ContinuousClock.now
        guard case let .connected(client) = CameraRemoteClient.connect(to: server.path) else {
            Issue.record("a new client could not connect after \(silent.count) silent ones")
            return
        }
        client.setReceiveTimeoutForTests(seconds: 5)
        let reply = try client.request(["command": "capture"])
        #expect((reply["message"]?.string)?.hasPrefix("did capture") == true)
        #expect(ContinuousClock.now - started < .seconds(2))
        // The first ones made room for later ones at once; the newest silent one is closed once it has said
        // nothing for the idle time.
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(read(silent[0].descriptor, &buffer, buffer.count) == 0, "the longest-silent connection was not let go")
        var time = timeval(tv_sec: 25, tv_usec: 0)
        let newest = silent[silent.count - 1]
        setsockopt(newest.descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        let waited = ContinuousClock.now
        #expect(read(newest.descriptor, &buffer, buffer.count) == 0, "the silent connection stayed open")
        #expect(ContinuousClock.now - waited < .seconds(20), "a silent connection must not hold a thread for long")
        withExtendedLifetime(silent) {}
    }

    @Test func aSocketInAFolderOthersCanEnterOrOwnIsNotTrusted() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try startServer(in: folder)
        defer { server.stop() }
        guard case .connected = CameraRemoteClient.connect(to: server.path) else {
            Issue.record("the private folder was not trusted")
            return
        }
        chmod(folder, 0o755)
        guard case let .untrusted(reason) = CameraRemoteClient.connect(to: server.path) else {
            Issue.record("a socket in a 0755 folder was trusted")
            return
        }
        #expect(reason == "\(folder) has mode 755; others may enter it (it must be 0700)")
        // Another user's folder (what someone who created /tmp/gstcam-UID first would have).
        chmod(folder, 0o700)
        if getuid() == 0 {
            chown(folder, 65534, 65534)
            guard case let .untrusted(reason) = CameraRemoteClient.connect(to: server.path) else {
                Issue.record("a socket in another user's folder was trusted")
                return
            }
            #expect(reason == "\(folder) belongs to user 65534, not to you (0)")
            chown(folder, 0, 0)
        }
        // The server will not listen there either.
        chmod(folder, 0o711)
        #expect(throws: RemoteProtocolError("\(folder) has mode 711; others may enter it (it must be 0700); set XDG_RUNTIME_DIR to a private folder")) {
            try CameraRemoteServer.start(path: folder + "/gstcam-other.sock", status: { fatalError() }, perform: { _ in fatalError() })
        }
    }

    @Test func theFallbackFolderIsMadePrivate() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fallback = folder + "/gstcam-\(getuid())"
        try RuntimeFolder.makePrivate(fallback)
        var info = stat()
        #expect(lstat(fallback, &info) == 0 && info.st_mode & 0o777 == 0o700)
        chmod(fallback, 0o777)
        try RuntimeFolder.makePrivate(fallback)
        #expect(lstat(fallback, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(RuntimeFolder.distrust(fallback) == nil)
    }

    /// Through a real camera screen: the refusals reach the client, and `"overwrite":true` into a device node or
    /// a named pipe streams into it instead of replacing it.
    @Test func theCameraScreenRefusesBadCapturesAndStreamsIntoDevices() throws {
        let (preview, socket) = try ScreenProcess.testPattern(seconds: 20)
        defer { preview.remove() }
        guard case let .connected(client) = CameraRemoteClient.connect(to: socket) else {
            Issue.record("no connection to \(socket)")
            return
        }
        for line in [#"{"command":"capture","path":12}"#, #"{"command":"capture","directory":"\#(preview.folder)/new/folder"}"#,
                     #"{"command":"zoom","factor":-1}"#, #"{"command":"zoom","factor":0}"#, ""] {
            let reply = try client.send(line)
            #expect(reply.contains(#""ok":false"#), "\(line) → \(reply)")
        }
        #expect(!FileManager.default.fileExists(atPath: preview.folder + "/new"))
        #expect(preview.savedPhotos.isEmpty)
        #expect(try client.request(["command": "status"])["zoom"]?.double == 1)
        let node = preview.folder + "/null"
        #expect(mknod(node, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0)
        let reply = try client.request(["command": "capture", "path": .string(node), "overwrite": true])
        #expect(reply["path"]?.string == node)
        var info = stat()
        #expect(lstat(node, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "the device node was replaced")
        #expect(preview.process.isRunning)
    }
}
