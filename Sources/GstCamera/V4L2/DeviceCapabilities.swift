/// The `V4L2_CAP_*` bits of VIDIOC_QUERYCAP.
struct DeviceCapabilities: OptionSet, Sendable, Hashable {
    let rawValue: UInt32

    static let videoCapture = DeviceCapabilities(rawValue: 0x0000_0001)
    static let videoOutput = DeviceCapabilities(rawValue: 0x0000_0002)
    static let videoOverlay = DeviceCapabilities(rawValue: 0x0000_0004)
    static let videoCaptureMultiplanar = DeviceCapabilities(rawValue: 0x0000_1000)
    static let videoOutputMultiplanar = DeviceCapabilities(rawValue: 0x0000_2000)
    static let videoMemoryToMemoryMultiplanar = DeviceCapabilities(rawValue: 0x0000_4000)
    static let videoMemoryToMemory = DeviceCapabilities(rawValue: 0x0000_8000)
    static let metadataCapture = DeviceCapabilities(rawValue: 0x0080_0000)
    static let readWrite = DeviceCapabilities(rawValue: 0x0100_0000)
    static let streaming = DeviceCapabilities(rawValue: 0x0400_0000)
    static let metadataOutput = DeviceCapabilities(rawValue: 0x0800_0000)
    static let touch = DeviceCapabilities(rawValue: 0x1000_0000)
    /// `device_caps` is filled in: it describes this node, `capabilities` the whole physical device.
    static let deviceCaps = DeviceCapabilities(rawValue: 0x8000_0000)

    /// Whether a node with these capabilities delivers camera frames (single-planar, which v4l2src needs for a
    /// webcam, or multi-planar), excluding memory-to-memory codecs, which also advertise capture.
    var capturesVideo: Bool {
        !isDisjoint(with: [.videoCapture, .videoCaptureMultiplanar])
            && isDisjoint(with: [.videoMemoryToMemory, .videoMemoryToMemoryMultiplanar])
    }

    /// Words for what the node is, used when it is not a capture node.
    var kindDescription: String {
        if contains(.metadataCapture) { return "a metadata node" }
        if !isDisjoint(with: [.videoMemoryToMemory, .videoMemoryToMemoryMultiplanar]) { return "a memory-to-memory codec" }
        if !isDisjoint(with: [.videoOutput, .videoOutputMultiplanar, .metadataOutput]) { return "an output node" }
        if contains(.touch) { return "a touch sensor" }
        return "no video capture capability"
    }
}

/// The answer of VIDIOC_QUERYCAP.
struct DeviceIdentity: Sendable, Hashable {
    var driver: String
    var card: String
    var busInfo: String
    var version: UInt32
    /// The whole physical device's capabilities.
    var capabilities: DeviceCapabilities
    /// This node's capabilities (equal to `capabilities` for old drivers without V4L2_CAP_DEVICE_CAPS).
    var nodeCapabilities: DeviceCapabilities
}
