import Glibc

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
        try CameraSelector.select(selector, from: cameras())
    }

    /// The cameras as one line each, for error messages.
    static func cameraDescriptions() -> [String] {
        cameras().map(\.summary)
    }

    static func cameras(deviceDirectory: String, linkDirectories: [String]) -> [Camera] {
        let nodes = videoNodeNames(in: DirectoryListing.names(in: deviceDirectory)).compactMap { number, name in
            NodeProbe(path: deviceDirectory + "/" + name, number: number)
        }
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
        return words.contains("ir") || name.lowercased().contains("infrared")
    }
}

/// What one `/dev/videoN` node turned out to be.
struct NodeProbe {
    var path: String
    var number: Int
    var kind: CameraNode.Kind
    var name: String
    var driver = ""
    var busInfo = ""
    var formats: [CameraFormat] = []
    var features = CameraFeatures()
    var problem: CameraError?

    /// Opens and queries the node; nil when it vanished between readdir and open.
    init?(path: String, number: Int) {
        self.path = path
        self.number = number
        let device: V4L2Device
        do {
            device = try V4L2Device.open(path, listingCameras: false)
        } catch {
            if case .noSuchDevice = error { return nil }
            // The sysfs name is readable without opening the device, so even a forbidden camera has a name.
            name = DirectoryListing.firstLine(of: "/sys/class/video4linux/video\(number)/name") ?? ""
            kind = .unknown
            problem = error
            return
        }
        let identity: DeviceIdentity
        do {
            identity = try device.queryCapabilities()
        } catch {
            name = DirectoryListing.firstLine(of: "/sys/class/video4linux/video\(number)/name") ?? ""
            if case .notCaptureDevice = error {
                kind = .other  // not a V4L2 node at all: nothing to report
            } else {
                kind = .unknown
                problem = error
            }
            return
        }
        name = identity.card
        driver = identity.driver
        busInfo = identity.busInfo
        kind = Self.kind(of: identity.nodeCapabilities)
        guard kind == .capture else { return }
        let bufferType = identity.nodeCapabilities.contains(.videoCapture) ? videoCaptureBufferType : videoCaptureMultiplanarBufferType
        do {
            formats = try Self.formats(of: device, bufferType: bufferType)
            features = try CameraFeatures(device: device)
        } catch {
            problem = error
        }
    }

    private static func kind(of capabilities: DeviceCapabilities) -> CameraNode.Kind {
        if capabilities.capturesVideo { return .capture }
        if capabilities.contains(.metadataCapture) { return .metadata }
        if !capabilities.isDisjoint(with: [.videoMemoryToMemory, .videoMemoryToMemoryMultiplanar]) { return .codec }
        if !capabilities.isDisjoint(with: [.videoOutput, .videoOutputMultiplanar, .metadataOutput]) { return .output }
        return .other
    }

    private static func formats(of device: V4L2Device, bufferType: UInt32) throws(CameraError) -> [CameraFormat] {
        var result: [CameraFormat] = []
        for format in try device.formats(bufferType: bufferType) {
            var sizes: [CameraFrameSize] = []
            for size in try device.frameSizes(for: format.pixelFormat) {
                switch size {
                case let .discrete(width, height):
                    let rates = try device.frameIntervals(for: format.pixelFormat, width: width, height: height)
                    sizes.append(CameraFrameSize(width: Int(width), height: Int(height), framesPerSecond: framesPerSecond(rates)))
                case let .stepwise(minWidth, maxWidth, widthStep, minHeight, maxHeight, heightStep):
                    let rates = try device.frameIntervals(for: format.pixelFormat, width: maxWidth, height: maxHeight)
                    sizes.append(CameraFrameSize(
                        width: Int(maxWidth), height: Int(maxHeight), framesPerSecond: framesPerSecond(rates),
                        range: .init(minWidth: Int(minWidth), maxWidth: Int(maxWidth), widthStep: Int(widthStep),
                                     minHeight: Int(minHeight), maxHeight: Int(maxHeight), heightStep: Int(heightStep))))
                }
            }
            result.append(CameraFormat(pixelFormat: format.pixelFormat, description: format.description,
                                       isCompressed: format.isCompressed, sizes: sizes))
        }
        return result
    }

    /// Frame rates, highest first, rounded to 1/100 (30000/1001 → 29.97).
    private static func framesPerSecond(_ intervals: [FrameIntervalRange]) -> [Double] {
        var rates: [Double] = []
        for interval in intervals {
            switch interval {
            case let .discrete(value): rates.append(value.framesPerSecond)
            case let .stepwise(minimum, maximum, _): rates += [minimum.framesPerSecond, maximum.framesPerSecond]
            }
        }
        let rounded = rates.filter { $0 > 0 }.map { ($0 * 100).rounded() / 100 }
        return Array(Set(rounded)).sorted(by: >)
    }
}

/// The udev links in /dev/v4l/by-id and /dev/v4l/by-path, by the node they point at.
struct StableLinks {
    var byID: [String: String] = [:]
    var byPath: [String: String] = [:]

    init(directories: [String]) {
        for directory in directories {
            for name in DirectoryListing.names(in: directory).sorted() {
                let link = directory + "/" + name
                guard let target = DirectoryListing.linkTarget(link) else { continue }
                if directory.hasSuffix("by-path") {
                    if byPath[target] == nil { byPath[target] = link }
                } else if byID[target] == nil {
                    byID[target] = link
                }
            }
        }
    }
}
