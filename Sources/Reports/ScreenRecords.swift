/// Figures the camera screen prints once a second: time since start, frames so far, measured rate.
public struct FiguresRecord: Encodable, Equatable {
    public var seconds: Double
    public var frames: Int
    public var fps: Double

    public init(seconds: Double, frames: Int, fps: Double) {
        self.seconds = seconds
        self.frames = frames
        self.fps = fps
    }
}

/// Something that happened while a command ran: "mode" (with the mode), "switch", "disconnected",
/// "reconnected", "camera-added"… (with a message for people).
public struct EventRecord: Encodable, Equatable {
    public var event: String
    public var message: String?
    public var mode: ModeRecord?

    public init(event: String, message: String? = nil, mode: ModeRecord? = nil) {
        self.event = event
        self.message = message
        self.mode = mode
    }
}

/// `gstcam --version --json`.
public struct VersionRecord: Encodable, Equatable {
    public var version: String
    public var gstreamer: String

    public init(version: String, gstreamer: String) {
        self.version = version
        self.gstreamer = gstreamer
    }
}
