/// The `V4L2_CAP_*` bits of VIDIOC_QUERYCAP.
public struct V4L2CapabilityFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let videoCapture = V4L2CapabilityFlags(rawValue: 0x0000_0001)
    public static let videoOutput = V4L2CapabilityFlags(rawValue: 0x0000_0002)
    static let videoOverlay = V4L2CapabilityFlags(rawValue: 0x0000_0004)
    static let videoCaptureMultiplanar = V4L2CapabilityFlags(rawValue: 0x0000_1000)
    public static let videoOutputMultiplanar = V4L2CapabilityFlags(rawValue: 0x0000_2000)
    public static let videoMemoryToMemoryMultiplanar = V4L2CapabilityFlags(rawValue: 0x0000_4000)
    public static let videoMemoryToMemory = V4L2CapabilityFlags(rawValue: 0x0000_8000)
    public static let metadataCapture = V4L2CapabilityFlags(rawValue: 0x0080_0000)
    static let readWrite = V4L2CapabilityFlags(rawValue: 0x0100_0000)
    static let streaming = V4L2CapabilityFlags(rawValue: 0x0400_0000)
    public static let metadataOutput = V4L2CapabilityFlags(rawValue: 0x0800_0000)
    static let touch = V4L2CapabilityFlags(rawValue: 0x1000_0000)
    /// `device_caps` is filled in: it describes this node, `capabilities` the whole physical device.
    static let deviceCaps = V4L2CapabilityFlags(rawValue: 0x8000_0000)

    /// Whether a node with these capabilities delivers camera frames (single-planar, which v4l2src needs for a
    /// webcam, or multi-planar), excluding memory-to-memory codecs, which also advertise capture.
    public var capturesVideo: Bool {
        !isDisjoint(with: [.videoCapture, .videoCaptureMultiplanar])
            && isDisjoint(with: [.videoMemoryToMemory, .videoMemoryToMemoryMultiplanar])
    }

    /// Words for what the node is, used when it is not a capture node.
    public var kindDescription: String {
        if contains(.metadataCapture) { return "a metadata node" }
        if !isDisjoint(with: [.videoMemoryToMemory, .videoMemoryToMemoryMultiplanar]) { return "a memory-to-memory codec" }
        if !isDisjoint(with: [.videoOutput, .videoOutputMultiplanar, .metadataOutput]) { return "an output node" }
        if contains(.touch) { return "a touch sensor" }
        return "no video capture capability"
    }
}

/// The answer of VIDIOC_QUERYCAP.
public struct DeviceIdentity: Sendable, Hashable {
    public var driver: String
    public var card: String
    public var busInfo: String
    var version: UInt32
    /// The whole physical device's capabilities.
    var capabilities: V4L2CapabilityFlags
    /// This node's capabilities (equal to `capabilities` for old drivers without V4L2_CAP_DEVICE_CAPS).
    public var nodeCapabilities: V4L2CapabilityFlags
}
