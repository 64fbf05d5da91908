import GstCamera

/// The options every camera command shares: which camera, which pipeline, which size and rate.
struct CameraOptions {
    static let help = """
      --device CAMERA        The camera: a path (/dev/video2), an index from `gstcam devices` (0, 1, …),
                             a stable id, or part of its name. Default: the first camera.
      --pipeline FILE        A pipeline file, or the name of one in pipelines/ (default, mjpeg, test-pattern).
                             Default: default (raw frames from the camera).
      --width W, --height H  Frame size (default 640x480).
      --fps F                Frames per second (default 30).
    """

    var configuration = CameraConfiguration()

    init(_ arguments: inout Arguments) throws {
        configuration.device = try arguments.option("--device")
        if let pipeline = try arguments.option("--pipeline") { configuration.pipeline = pipeline }
        if let width = try arguments.int("--width", minimum: 16) { configuration.width = width }
        if let height = try arguments.int("--height", minimum: 16) { configuration.height = height }
        if let fps = try arguments.int("--fps", minimum: 1) { configuration.framerate = fps }
    }
}
