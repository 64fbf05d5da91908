import FoundationEssentials
import Glibc
import GstCamera
import LinuxSystem
import Reports
import Screen

/// `gstcam capture` while a camera screen (`gstcam preview`) runs on the same camera: the photo is taken by
/// that session through its socket (no second open of the device, no warm-up) instead of failing busy.
enum ScreenRemote {
    /// Takes the photo through a running session and prints it as `gstcam capture` does; false when no session
    /// serves this camera (a stale socket is removed, and the caller opens the camera itself).
    static func capture(camera: CameraOptions, output: String?, directory: String?, overwrite: Bool,
                        latest: Bool, json: Bool, format: PhotoFormat?, flash: FlashMode?, timer: Int) async throws -> Bool {
        guard let client = client(for: camera) else { return false }
        let path = client.path
        // The screen creates no folders for requests (any program could send one); this command may, as it
        // does without a screen.
        if let directory { try PhotoLibrary(directory: absolute(directory)).createDirectory() }
        try applySettings(camera, through: client)
        await SelfTimer.countDown(timer)
        var request: [String: JSONValue] = ["command": "capture"]
        // -o -: the screen writes into a private temporary folder; this command copies the photo to stdout.
        let relay = output == "-" ? try StandardOutputRelay(format: format ?? .jpeg) : nil
        if let relay { request["path"] = relay.path.json } else if let output { request["path"] = absolute(output).json }
        if let directory { request["directory"] = absolute(directory).json }
        if overwrite { request["overwrite"] = true }
        if let format { request["format"] = format.rawValue.json }
        if let flash { request["flash"] = flash.rawValue.json }
        let reply: [String: JSONValue]
        do {
            reply = try client.request(request)
        } catch {
            relay?.remove()
            throw error
        }
        guard let saved = reply["path"]?.string else { throw RemoteProtocolError("the session at \(path) named no photo") }
        let width = reply["width"]?.int ?? 0, height = reply["height"]?.int ?? 0
        if let relay {
            try relay.copyToStandardOutput()
            Standard.error.write("Saved standard output (\(width)x\(height)) through the running preview\n")
            return true
        }
        if latest { try PhotoLibrary.updateLatestLink(to: saved) }
        if json {
            let milliseconds = Int((reply["milliseconds"]?.double ?? 0).rounded())
            print(JSONOutput.line(PhotoRecord(path: saved, width: width, height: height, milliseconds: milliseconds, session: path)))
        } else {
            print("Saved \(saved) (\(width)x\(height)) through the running preview")
        }
        return true
    }

    /// The running camera screen of this camera, or nil when none serves it (a stale socket is removed, and the
    /// caller opens the camera itself).
    static func client(for camera: CameraOptions) -> CameraRemoteClient? {
        guard let path = RemoteSocketPath.path(for: camera.configuration, camera: camera.foundCamera) else { return nil }
        switch CameraRemoteClient.connect(to: path) {
        case .noSession: return nil
        case let .untrusted(reason):
            Standard.error.write("gstcam: not using the camera screen socket \(path): \(reason).\n")
            return nil
        case .removedStale:
            Standard.error.write("gstcam: removed \(path), left by a camera screen that is no longer running.\n")
            return nil
        case let .connected(connected): return connected
        }
    }

    /// --zoom, --torch and --focus point:X,Y / once go to the running session first (printed to stderr as the
    /// session reports them); settings the protocol has no request for are refused rather than silently dropped.
    static func applySettings(_ camera: CameraOptions, through client: CameraRemoteClient) throws {
        var unsupported: [String] = []
        if camera.exposure != nil { unsupported.append("--exposure") }
        if !camera.configuration.controls.isEmpty { unsupported.append("--set") }
        // Both shape the screen's own pipeline, made when it started.
        if !camera.configuration.orientation.isNormal { unsupported.append("--rotate/--mirror") }
        if camera.configuration.photoStamp != nil { unsupported.append("--stamp") }
        var requests: [[String: JSONValue]] = []
        if let zoom = camera.zoom { requests.append(["command": "zoom", "factor": zoom.json]) }
        if let torch = camera.torch { requests.append(["command": "torch", "on": torch.json]) }
        switch camera.focus {
        case .point(let point)?: requests.append(["command": "focus", "x": point.x.json, "y": point.y.json])
        case .mode(.once)?: requests.append(["command": "focus", "mode": "once"])
        case .mode?: unsupported.append("--focus auto/manual")
        case nil: break
        }
        guard unsupported.isEmpty else {
            throw RemoteProtocolError("a camera screen is running on this camera (\(client.path)) and "
                + "\(unsupported.joined(separator: " and ")) cannot be applied through it: leave it out, or stop the preview")
        }
        for request in requests {
            let reply = try client.request(request)
            Standard.error.write((reply["message"]?.string ?? "applied") + "\n")
        }
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// `gstcam preview --send REQUEST`: one protocol line to the running screen; its reply on stdout.
    static func send(_ request: String, configuration: CameraConfiguration) throws {
        guard let path = RemoteSocketPath.path(for: configuration) else {
            throw RemoteProtocolError("the camera could not be found, so there is no camera screen to send to")
        }
        let client: CameraRemoteClient
        switch CameraRemoteClient.connect(to: path) {
        case let .connected(connected): client = connected
        case let .untrusted(reason): throw RemoteProtocolError("the socket \(path) is not trusted: \(reason)")
        case .noSession, .removedStale:
            throw RemoteProtocolError("no camera screen is running for this camera (nothing listens on \(path)); start one with gstcam preview")
        }
        let reply = try client.send(request.replacing("\n", with: " "))
        print(reply)
        if !reply.contains(#""ok":true"#) { throw ExitRequest(status: .failure) }
    }
}

/// A photo for standard output: taken into a private temporary folder (mode 0700), copied out, removed.
struct StandardOutputRelay {
    let folder: String
    let path: String

    init(format: PhotoFormat) throws {
        var template = Array("/tmp/gstcam-stdout-XXXXXX".utf8CString)
        guard let folder = mkdtemp(&template).map({ String(cString: $0) }) else {
            throw CameraError.outputNotWritable(path: "/tmp", reason: "no temporary folder could be made")
        }
        self.folder = folder
        path = folder + "/photo." + format.fileExtension
    }

    /// Copies the photo to standard output and removes it and its folder.
    func copyToStandardOutput() throws {
        defer {
            unlink(path)
            rmdir(folder)
        }
        do {
            let file = try FileDescriptor.open(path, O_RDONLY)
            try Standard.output.write(bytes: try file.read(count: Int(try file.status().st_size), at: 0))
        } catch {
            throw CameraError.writeFailed(path: "standard output", errno: error.code)
        }
    }

    func remove() {
        unlink(path)
        rmdir(folder)
    }
}
