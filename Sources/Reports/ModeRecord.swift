import Cameras
import Session

/// The camera mode a command runs in (size, rate, pixel format, pipeline file), what was asked, and whether the
/// nearest mode was taken instead (docs/modes.md).
public struct ModeRecord: Encodable, Equatable {
    public var width: Int
    public var height: Int
    /// The rate as printed ("30", "29.97") and exactly ("30000/1001").
    public var fps: String
    public var framerate: String
    /// The camera's pixel format, nil for a pipeline without a camera.
    @NullWhenAbsent public var format: String?
    public var pipeline: String
    /// What was asked ("1280x720 at 30 fps"), nil when nothing was.
    @NullWhenAbsent public var asked: String?
    /// Whether the camera lacked what was asked, so the nearest mode was taken.
    public var nearest: Bool

    public init(_ choice: ModeChoice) {
        let configuration = choice.configuration
        width = configuration.width
        height = configuration.height
        fps = "\(configuration.framerate)"
        framerate = configuration.framerate.fraction
        format = choice.mode?.pixelFormat.description
        pipeline = configuration.pipeline
        asked = choice.request.asksForSomething ? "\(choice.request)" : nil
        nearest = !choice.matchesRequest
    }
}
