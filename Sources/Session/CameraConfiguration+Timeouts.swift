import Cameras
extension CameraConfiguration {
    /// Frames larger than 1920x1080 take longer to convert and encode: a 3840x2160 JPEG takes 2.5 s on vivid's
    /// emulated CPU. Waits scale with the frame's size beyond that.
    var frameSizeFactor: Double { max(1, Double(width * height) / Double(1920 * 1080)) }

    /// How long a photo may take from request to encoded image: 5 s up to 1920x1080, proportionally more for
    /// larger frames, plus three frame intervals (1.5 s at 2 fps) for the frame to arrive.
    var photoTimeout: Duration {
        .milliseconds(Int(((5 * frameSizeFactor + 3 / framerate.value) * 1000).rounded()))
    }

    /// `startTimeout`, scaled like `photoTimeout` for a large or slow mode (never shorter than asked).
    func startTimeout(scaledFor mode: CameraMode) -> Duration {
        var scaled = self
        scaled.width = mode.width
        scaled.height = mode.height
        return max(startTimeout, startTimeout * scaled.frameSizeFactor + .milliseconds(Int((3000 / mode.frameRate.value).rounded())))
    }
}
