import CameraErrors
import Controls
import V4L2
/// One camera this machine offers: a V4L2 video-capture node and what it can do. `CameraDiscovery` finds them;
/// `CameraSelector` picks one. A node that exists but cannot be opened is still a `Camera`, with
/// `problem` saying why (its formats and controls are then unknown and empty).
public struct Camera: Sendable, Equatable {
    /// Position in the discovery list (sorted by node number), as `--device N` uses it; -1 for a camera
    /// chosen by its path and probed alone (`CameraDiscovery.camera(matching:)`), which is in no list.
    public var index: Int
    /// The device node, e.g. "/dev/video0".
    public var path: String
    /// The driver's card name, e.g. "Integrated Camera: Integrated C".
    public var name: String
    public var driver: String
    /// Where the device is attached (e.g. "usb-0000:00:14.0-1"); nodes of one physical device share it.
    public var busInfo: String
    /// The `/dev/v4l/by-id/…` link to this node, when udev made one: stable across reboots and ports.
    public var stableID: String?
    /// The `/dev/v4l/by-path/…` link to this node: stable as long as the camera stays in the same port.
    public var stablePath: String?
    /// Every video node of the same physical device (same bus info), this one included, sorted by node number.
    public var nodes: [CameraNode]
    /// Whether this looks like an infrared camera (see `CameraDiscovery.looksInfrared`).
    public var isInfrared: Bool
    public var formats: [CameraFormat]
    public var features: ControlSummary
    /// Why this user cannot use the camera (permission denied, gone, …); nil when it opened fine.
    public var problem: CameraError?

    /// Whether this user could open the device.
    public var isAccessible: Bool { problem == nil }

    /// One line naming the camera, as error messages and selectors list it: "0: /dev/video0 — Virtual UVC Camera".
    public var summary: String {
        let label = name.isEmpty ? "unknown camera" : name
        return (index >= 0 ? "\(index): " : "") + "\(path) — \(label)" + (isInfrared ? " [IR]" : "")
    }
}

/// A video node of a physical device, and what kind of node it is.
public struct CameraNode: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case capture, metadata, output, codec, other
        /// The node could not be opened, so its kind is unknown.
        case unknown
    }
    public var path: String
    public var kind: Kind
}

/// One pixel format with the frame sizes and rates the camera offers in it.
public struct CameraFormat: Sendable, Hashable, Encodable {
    public var pixelFormat: PixelFormat
    /// The driver's description, e.g. "YUYV 4:2:2".
    public var description: String
    public var isCompressed: Bool
    public var sizes: [CameraFrameSize]

    /// Whether gstcam can take this format (and through which pipeline), or why it skips it.
    public var support: FormatSupport { pixelFormat.support }
}

/// A frame size and its frame rates. For a stepwise/continuous size range (rare for webcams) `width`/`height`
/// are the largest size and `range` gives the bounds.
public struct CameraFrameSize: Sendable, Hashable, Encodable {
    public var width: Int
    public var height: Int
    /// Discrete frame rates as exact fractions, highest first; for a stepwise/continuous interval range, its
    /// two ends (and `rateRange` is set).
    public var frameRates: [FrameRate]
    public var range: SizeRange?
    /// A stepwise/continuous frame interval range, as rates (slowest…fastest); nil for discrete rates.
    public var rateRange: ClosedRange<FrameRate>?

    public init(width: Int, height: Int, frameRates: [FrameRate], range: SizeRange? = nil, rateRange: ClosedRange<FrameRate>? = nil) {
        self.width = width
        self.height = height
        self.frameRates = frameRates.sorted(by: >)
        self.range = range
        self.rateRange = rateRange
    }

    /// The frame rates in frames per second, highest first, rounded to 1/100 (30000/1001 → 29.97).
    public var framesPerSecond: [Double] {
        frameRates.map { ($0.value * 100).rounded() / 100 }
    }

    public struct SizeRange: Sendable, Hashable, Codable {
        public var minWidth: Int, maxWidth: Int, widthStep: Int
        public var minHeight: Int, maxHeight: Int, heightStep: Int
    }
}

