/// Everything that can go wrong between a program and a camera, each case carrying what a person needs
/// to understand it (which device, which file) so that `description` can also say how to fix it.
public enum CameraError: Error, Equatable, Sendable {
    // MARK: Devices
    /// The path does not exist. `available` lists the capture devices that do.
    case noSuchDevice(path: String, available: [String])
    /// No capture device exists at all on this machine.
    case noCamera
    /// open(2) answered EACCES/EPERM.
    case permissionDenied(path: String)
    /// Another process streams the device (EBUSY). `holder` names it where it could be found.
    case deviceBusy(path: String, holder: String?)
    /// A gstcam camera screen (`gstcam preview`, process `pid`) streams the camera; it serves plain photos.
    case heldByCameraScreen(path: String, pid: Int32)
    /// The node exists but is not a video capture device (a metadata or output node, or not V4L2 at all).
    case notCaptureDevice(path: String, reason: String)
    /// The device disappeared (ENODEV), e.g. unplugged while in use.
    case deviceGone(path: String)
    /// Any other errno from a device call; `operation` names the call (e.g. "VIDIOC_QUERYCAP").
    case deviceFailure(path: String, operation: String, errno: Int32)
    /// A camera selector (index, path, id, name fragment) matched no camera or more than one.
    case unknownCamera(selector: String, available: [String])
    case ambiguousCamera(selector: String, matches: [String])
    /// "Next camera" with no other camera that can be used: `device` is the one streaming (nil: a pipeline
    /// without a camera), `unusable` the other cameras with why each cannot be used.
    case noOtherCamera(device: String?, unusable: [String])

    // MARK: Pipelines
    /// The camera and the pipeline could not agree on a format/size/rate.
    case negotiationFailed(device: String?, detail: String)
    /// An element factory is not installed; `package` is the Debian package that provides it, nil when the
    /// name is not one gstcam knows (a typo, or a plugin of some other package).
    case missingElement(factory: String, package: String?, file: String?)
    /// A pipeline description file could not be read or parsed.
    case badPipelineFile(file: String, detail: String)
    /// A pipeline file lacks an element name the session looks up (see pipelines/README.md).
    case missingPipelineElement(file: String, name: String, purpose: String)
    /// A `${name}` placeholder in a pipeline file has no value.
    case unknownPipelineParameter(file: String, name: String)
    /// No pipelines/ directory could be found.
    case pipelinesNotFound(searched: [String])
    /// GStreamer reported an error while running; `source` is the element's name.
    case streamingFailed(source: String, detail: String)
    /// A state change was refused.
    case stateChangeFailed(to: String, detail: String)
    /// No frame arrived in time.
    case timeout(what: String, seconds: Double)
    /// The camera's driver failed while the session ran (a frame could not be taken from it, or it flagged the
    /// stream as broken); `reason` says what the driver did, in words.
    case streamingStopped(device: String, reason: String)
    /// The driver refused to set up or start streaming (VIDIOC_REQBUFS, QUERYBUF, QBUF or STREAMON failed).
    case streamStartFailed(device: String, reason: String)
    /// A running camera sent no frame for `seconds` (`CameraConfiguration.stallTimeout`).
    case stalled(device: String, seconds: Double)

    // MARK: Session use
    /// The call needs a running session.
    case notRunning(state: String)

    // MARK: Files
    /// The output directory is missing or not writable, or the file exists and overwriting was not asked for.
    case outputNotWritable(path: String, reason: String)
    case outputExists(path: String)
    /// The name is a device, socket or pipe (`kind`: "a block device"…) where a photo file was expected.
    case outputNotAPhotoFile(path: String, kind: String)
    /// Writing the photo failed part way (ENOSPC, EIO, directory removed); nothing was left behind.
    case writeFailed(path: String, errno: Int32)
    /// A gallery file could not be moved to the desktop trash (MediaFiles/Trash.swift): why, and what to do.
    case trashFailed(path: String, reason: String, fix: String)

    // MARK: Controls
    case controlUnknown(name: String, device: String, suggestions: [String])
    case controlOutOfRange(name: String, value: String, minimum: Int64, maximum: Int64, step: Int64)
    case controlReadOnly(name: String, device: String)
    case controlInactive(name: String, device: String)
    case controlBadValue(name: String, value: String, expected: String)
    /// A number that selects no item of a menu control; `items` are the ones it has, e.g. ["1 Manual Mode"].
    case controlNotMenuItem(name: String, value: String, items: [String])
    case torchUnavailable(device: String)
    case flashUnavailable(device: String)
    case focusUnavailable(device: String)
    case zoomUnavailable(device: String)
    case exposureUnavailable(device: String)
    /// The session runs a pipeline without a V4L2 source (e.g. the test pattern).
    case noDeviceControls(pipeline: String)
    /// `gstcam serve`: a server (`what`: "The RTSP server", "The web server") could not start at address:port.
    case serveFailed(what: String, address: String, port: Int, detail: String)

    // MARK: Recording
    /// No encoder for `codec` can be made here; `tried` says why each candidate could not (docs/recording.md).
    case noVideoEncoder(codec: String, tried: [String])
    /// The recording to `path` stopped by itself (a full disk, a write error); the file plays up to then.
    case recordingFailed(path: String, detail: String)
    /// The session records already (one recording at a time).
    case alreadyRecording(path: String)
    /// `--audio`: no sound input could be opened (no microphone, no sound server).
    case audioUnavailable(detail: String)
    /// `--codec mjpeg`: the camera's mode delivers no JPEG frames to record as they are.
    case noMotionJPEG(device: String?, mode: String)
    /// `--codec mjpeg` with digital zoom: the camera's JPEG frames are recorded as they are, before the zoom stage.
    case zoomNotInCameraJPEG(factor: Double)
    /// `--codec mjpeg` with the picture turned (`--rotate 180`, `--mirror`): the camera's JPEG frames are not.
    case turnedNotInCameraJPEG
}
