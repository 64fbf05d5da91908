import Controls
import Session
/// What the camera screen's keys, clicks and the remote protocol ask of a running session.
public enum CameraAction: Sendable, Equatable {
    /// A photo into the operator's library (the gallery).
    case capture
    /// A photo to this file (format from its extension); an existing file is replaced only with `overwrite`.
    case captureTo(path: String, overwrite: Bool)
    /// A photo under a new gallery name in this folder.
    case captureInto(directory: String)
    case toggleTorch
    case torch(on: Bool)
    case nextCamera
    case zoomIn
    case zoomOut
    case resetZoom
    case zoom(factor: Double)
    case toggleContinuousFocus
    case focusOnce
    /// Focus and expose at a point of the picture as shown (digital zoom taken into account).
    case focus(at: NormalizedPoint)
    /// Starts recording into the Videos folder (or to `path`), or stops the recording in progress.
    case toggleRecording
    case startRecording(path: String?)
    case stopRecording
    case quit

    /// The key bindings of the camera screen (X keysym names; a terminal maps its bytes to the same names).
    public init?(key: String) {
        switch key {
        case "space", "Return", "KP_Enter": self = .capture
        case "t", "T": self = .toggleTorch
        case "c", "C": self = .nextCamera
        case "plus", "equal", "KP_Add": self = .zoomIn
        case "minus", "underscore", "KP_Subtract": self = .zoomOut
        case "0", "KP_0": self = .resetZoom
        case "a", "A": self = .toggleContinuousFocus
        case "f", "F": self = .focusOnce
        case "r", "R": self = .toggleRecording
        case "q", "Q", "Escape": self = .quit
        default: return nil
        }
    }

    /// The keys, for help texts.
    public static let keyHelp = """
      click                  Focus and expose at that point (a focus square shows where).
      wheel, + / -           Zoom in / out (digital zoom, 1× to 8×); 0 resets the zoom.
      space, Enter           Take a photo into the gallery.
      t                      Torch on / off.
      c                      Next camera.
      a                      Continuous auto focus on / off.
      f                      Focus once.
      r                      Start / stop recording a video into the Videos folder (docs/recording.md).
      q, Esc                 Quit (closing the window too).
    """

    /// How much one zoom step or wheel step multiplies the zoom factor by.
    static let zoomStep = 1.25
}

/// What an action did, as the screen shows it.
public struct CameraActionOutcome: Sendable, Equatable {
    /// One line for the screen (and stderr when it is an error).
    public var message: String
    public var isError: Bool
    /// The photo a capture saved.
    public var photo: Photo?
    /// The point the focus square goes to, for a click.
    var focusPoint: NormalizedPoint?
    /// The file a recording started into.
    var recordingPath: String?
    /// The video a recording that stopped wrote.
    var video: RecordedVideo?

    public init(message: String, isError: Bool = false, photo: Photo? = nil, focusPoint: NormalizedPoint? = nil,
                recordingPath: String? = nil, video: RecordedVideo? = nil) {
        self.message = message
        self.isError = isError
        self.photo = photo
        self.focusPoint = focusPoint
        self.recordingPath = recordingPath
        self.video = video
    }
}
