import Controls
import MediaFiles
import Session

/// Where a photo the screen takes goes.
public enum PhotoDestination: Sendable, Equatable {
    /// The operator's library (the gallery, or the folder it was given).
    case gallery
    /// This file; an existing one is replaced only with `overwrite`.
    case file(path: String, overwrite: Bool)
    /// A new gallery name in this folder.
    case folder(String)
}

/// What the camera screen's keys, clicks and the remote protocol ask of a running session.
public enum CameraAction: Sendable, Equatable {
    /// A photo: where it goes, its format (nil: from the file name, else JPEG) and the flash (nil: the
    /// screen's flash mode). `CameraAction.capture()` is the shutter key's: into the gallery.
    case capture(PhotoDestination = .gallery, format: PhotoFormat? = nil, flash: FlashMode? = nil)
    /// The flash mode for later photos; nil cycles off → on → auto.
    case flash(FlashMode?)
    /// The self-timer for the shutter key and button: off → 3 → 5 → 10 s → off.
    case cycleTimer
    /// Code scanning on / off: codes read are shown and printed (CodeScanner).
    case toggleScan
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
    case startRecording(path: String?, options: RemoteRecordingOptions = RemoteRecordingOptions())
    case stopRecording
    /// Starts the file of a recording armed with a pre-roll (`record_start` with `"pre"`): it begins that much earlier.
    case beginRecording
    /// The photo viewer on the gallery, over the camera (`g`, the last-photo thumbnail); Esc comes back.
    case openViewer
    /// Closes the photo viewer opened over the camera (the socket's `{"command":"viewer","open":false}`).
    case closeViewer
    case quit

    /// The key bindings of the camera screen (X keysym names; a terminal maps its bytes to the same names).
    public init?(key: String) {
        switch key {
        case "space", "Return", "KP_Enter": self = .capture()
        case "l", "L": self = .flash(nil)
        case "t": self = .toggleTorch
        case "T": self = .cycleTimer
        case "s", "S": self = .toggleScan
        case "c", "C": self = .nextCamera
        case "plus", "equal", "KP_Add": self = .zoomIn
        case "minus", "underscore", "KP_Subtract": self = .zoomOut
        case "0", "KP_0": self = .resetZoom
        case "a", "A": self = .toggleContinuousFocus
        case "f", "F": self = .focusOnce
        case "r", "R": self = .toggleRecording
        case "g", "G": self = .openViewer
        case "q", "Q", "Escape": self = .quit
        default: return nil
        }
    }

    /// The keys, for help texts.
    public static let keyHelp = """
      click                  Focus and expose at that point (a focus square shows where).
      wheel, + / -           Zoom in / out by 1.25×: optical first where the camera has it, then digital
                             up to 8× more (the crop at least 32 pixels); 0 resets the zoom.
      space, Enter           Take a photo into the gallery.
      l                      Flash mode: off, on, auto (fires when the picture is dark).
      t                      Torch on / off.
      T (shift+t)            Self-timer: off, 3, 5, 10 s. The shutter then counts down on the screen and
                             takes the photo at zero; Esc cancels the countdown.
      s                      Scan codes on / off: each QR code or barcode read is shown and printed.
      c                      Next camera.
      a                      Continuous auto focus on / off.
      f                      Focus once.
      r                      Start / stop recording a video into the Videos folder (docs/recording.md).
      g                      Open the gallery's photos in the viewer (←/→ browse, Delete: to the trash,
                             Esc: back to the camera, which keeps running meanwhile).
      h                      Hide / show the window's control bar (its buttons do what these keys do).
      q, Esc                 Quit (closing the window too).
    """

    /// The self-timer's settings in the order `T` cycles through them (0: off).
    public static let timerSteps = [0, 3, 5, 10]

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
    public var recordingPath: String?
    /// The video a recording that stopped wrote.
    public var video: RecordedVideo?
    /// Whether the flash fired for the photo.
    var flashFired = false

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
