import GstCamera
import LinuxSystem
import Reports
import Screen

/// `gstcam capture --preview`: the camera screen as a picker, like a phone's system camera picker. The user
/// frames the shot and presses space or Enter; the photo's path is printed and the command exits 0. Esc, q or
/// closing the window cancels: exit status 2 (ExitStatus.cancelled) and no file.
enum PickerScreen {
    static func run(camera: CameraOptions, directory: String?, json: Bool, flash: FlashMode, timer: Int) async throws {
        var camera = camera
        let output = try PreviewOutput.choose(sink: nil, environment: ProcessEnvironment.current())
        guard output != .none else {
            throw UsageError("--preview needs a display or a terminal to show the camera in")
        }
        let ending = try await PreviewCommand.runScreen(camera: &camera, output: output, duration: nil, json: json,
                                                        picker: true, library: PhotoLibrary(directory: directory), flash: flash, timer: timer)
        guard case let .photo(photo) = ending else {
            Standard.error.write("gstcam: cancelled; no photo was taken.\n")
            throw ExitRequest(status: .cancelled)
        }
        if json {
            print(JSONOutput.line(PhotoRecord(photo, timed: false)))
        } else {
            print(photo.path)
        }
    }
}
