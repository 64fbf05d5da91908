import Glibc
import CameraErrors
import LinuxSystem
import V4L2

/// Finds the cameras of this machine by scanning `/dev` for `video*` nodes and asking each with
/// VIDIOC_QUERYCAP. It works without udev (unlike GstDeviceMonitor), in containers, and with the virtual camera.
public enum CameraDiscovery {
    /// Every video-capture node, sorted by node number (`/dev/video0` first). Metadata, output and codec nodes are
    /// left out (they appear in `Camera.nodes` of their physical device); nodes this user cannot open are kept,
    /// with `Camera.problem` saying why.
    public static func cameras() -> [Camera] {
        cameras(deviceDirectory: "/dev", linkDirectories: ["/dev/v4l/by-id", "/dev/v4l/by-path"])
    }

    /// The camera a selector names: an index ("0"), a path ("/dev/video2", "video2", or a `/dev/v4l/…` link), a
    /// stable id (the name of a `/dev/v4l/by-id` link), or a case-insensitive fragment of the name. `nil` or ""
    /// selects the first camera.
    /// - Throws: `noCamera` when the machine has none; `unknownCamera` / `ambiguousCamera` listing the cameras.
    public static func camera(matching selector: String?) throws(CameraError) -> Camera {
        if let camera = cameraProbedAlone(selector) { return camera }
        return try CameraSelector.select(selector, from: cameras())
    }

    /// The camera at a device path (`/dev/video2`), probed alone: a path names its node whatever the other
    /// cameras are, so choosing a camera by path opens no other camera (on a laptop each open can wake a
    /// suspended USB camera, and each probe reads every format and control). Such a camera is in no list: its
    /// `index` is -1 and its `nodes` hold only itself. Nil when the selector is not a video node's path, or the
    /// node does not open as a usable capture node: `camera(matching:)` then falls back to discovery, whose
    /// error says why and lists the cameras.
    static func cameraProbedAlone(_ selector: String?, deviceDirectory: String = "/dev",
                                  linkDirectories: [String] = ["/dev/v4l/by-id", "/dev/v4l/by-path"]) -> Camera? {
        guard let text = selector?.trimmingWhitespace, text.hasPrefix(deviceDirectory + "/") else { return nil }
        let name = String(text.dropFirst(deviceDirectory.count + 1))
        guard let node = videoNodeNames(in: [name]).first,
              let probe = NodeProbe(path: deviceDirectory + "/" + name, number: node.number),
              probe.kind == .capture, probe.problem == nil,
              var camera = cameras(from: [probe], linkDirectories: linkDirectories).first else { return nil }
        camera.index = -1
        return camera
    }

    /// The cameras as one line each, for error messages.
    static func cameraDescriptions() -> [String] {
        cameras().map(\.summary)
    }

    static func cameras(deviceDirectory: String, linkDirectories: [String]) -> [Camera] {
        let nodes = videoNodeNames(in: DirectoryListing.names(in: deviceDirectory)).compactMap { number, name in
            NodeProbe(path: deviceDirectory + "/" + name, number: number)
        }
        return cameras(from: nodes, linkDirectories: linkDirectories)
    }

    /// The cameras among probed nodes (sorted by node number), with their sibling nodes and stable links.
    static func cameras(from nodes: [NodeProbe], linkDirectories: [String]) -> [Camera] {
        let links = StableLinks(directories: linkDirectories)
        var cameras: [Camera] = []
        for probe in nodes where probe.kind == .capture || probe.kind == .unknown {
            let siblings = nodes.filter { $0.path == probe.path || (!probe.busInfo.isEmpty && $0.busInfo == probe.busInfo) }
            cameras.append(Camera(
                index: cameras.count, path: probe.path, name: probe.name, driver: probe.driver, busInfo: probe.busInfo,
                stableID: links.byID[probe.path], stablePath: links.byPath[probe.path],
                nodes: siblings.map { CameraNode(path: $0.path, kind: $0.kind) },
                isInfrared: looksInfrared(name: probe.name, formats: probe.formats.map(\.pixelFormat)),
                formats: probe.formats, features: probe.features, problem: probe.problem))
        }
        return cameras
    }

    /// `video<N>` entries, sorted by N.
    static func videoNodeNames(in names: [String]) -> [(number: Int, name: String)] {
        names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("video"), let number = Int(name.dropFirst(5)), number >= 0,
                  name.dropFirst(5).allSatisfy(\.isASCII) else { return nil }
            return (number, name)
        }.sorted { $0.0 < $1.0 }
    }

    /// The IR heuristic: a camera is marked infrared when every format it offers is greyscale (GREY, Y10, Y12,
    /// Y16, Z16 — what IR sensors deliver; colour cameras always offer a colour format), or when its name has
    /// "IR" as a word or says "infrared" (e.g. "Integrated IR Camera"). A greyscale-only industrial camera would be
    /// marked too; that is accepted, since for a photo app it behaves like one.
    static func looksInfrared(name: String, formats: [PixelFormat]) -> Bool {
        if !formats.isEmpty && formats.allSatisfy(\.isGreyscale) { return true }
        let words = name.split { !$0.isLetter && !$0.isNumber }.map { $0.lowercased() }
        return words.contains("ir") || name.lowercased().containsText("infrared")
    }
}
