import Glibc

extension CameraError: CustomStringConvertible {
    /// What happened, to which device or file, and what to do about it: the text a CLI prints as is.
    public var description: String {
        switch self {
        case let .noSuchDevice(path, available):
            return "\(path) does not exist. " + Self.listing(available, none: "This machine has no camera.")
        case .noCamera:
            return "No camera found: no /dev/video* device can capture video. Plug in a camera, or try the "
                + "virtual camera (see README: \"Without a camera\")."
        case let .permissionDenied(path):
            return "Permission denied opening \(path). Add your user to the `video` group "
                + "(sudo usermod -aG video $USER), then log out and back in."
        case let .deviceBusy(path, holder):
            if let holder { return "\(path) is in use by \(holder). Close that program and try again." }
            return "\(path) is in use by another program. Close it (e.g. a browser tab or video call) and try again."
        case let .heldByCameraScreen(path, pid):
            return "our own camera screen (gstcam preview, PID \(pid)) holds \(path); quit it (q or Esc in its window, or "
                + "kill \(pid)), or take photos through it: `gstcam capture` without --count is served by the screen "
                + "(-o, --dir, --format, --flash, -o - too); a burst (--count) needs the camera itself."
        case let .notCaptureDevice(path, reason):
            return "\(path) is not a video capture device (\(reason)). Choose another one: gstcam devices"
        case let .deviceGone(path):
            return "\(path) was disconnected. Plug the camera back in and start again."
        case let .deviceFailure(path, operation, errno):
            return "\(operation) on \(path) failed: \(Self.errnoText(errno))."
        case let .unknownCamera(selector, available):
            return "No camera matches \"\(selector)\". " + Self.listing(available, none: "This machine has no camera.")
        case let .noOtherCamera(device, unusable):
            let only = device.map { "\($0) is the only camera that can be used" } ?? "this pipeline shows no camera to switch from"
            return "No other camera to switch to: \(only)"
                + (unusable.isEmpty ? "." : "; the others cannot be used:\n" + unusable.map { "  \($0)" }.joined(separator: "\n"))
        case let .ambiguousCamera(selector, matches):
            return "\"\(selector)\" matches more than one camera; be more specific:\n"
                + matches.map { "  \($0)" }.joined(separator: "\n")
        case let .negotiationFailed(device, detail):
            let on = device.map { " with \($0)" } ?? ""
            return "Could not agree on a video format\(on): \(Self.sentence(detail)). List what the camera offers with "
                + "`gstcam devices` and pick a size and frame rate from it (--width, --height, --fps)."
        case let .missingElement(factory, package, file):
            let inFile = file.map { " (used by \($0))" } ?? ""
            guard let package else {
                return "GStreamer has no element \"\(factory)\"\(inFile). Check the name (gst-inspect-1.0 lists the installed "
                    + "elements); if it comes from a plugin that is not installed, find its package: apt search gstreamer1.0"
            }
            return "The GStreamer element \"\(factory)\"\(inFile) is not installed. Install it: "
                + "sudo apt-get install \(package)"
        case let .badPipelineFile(file, detail):
            return "\(file): \(detail)"
        case let .missingPipelineElement(file, name, purpose):
            return "\(file) has no element named \"\(name)\" (\(purpose)). Add name=\(name) to that element; "
                + "see pipelines/README.md."
        case let .unknownPipelineParameter(file, name):
            return "\(file) uses ${\(name)}, which is not a known parameter; see pipelines/README.md."
        case let .pipelinesNotFound(searched):
            return "No pipelines directory found (looked in: \(searched.joined(separator: ", "))). "
                + "Set GSTCAM_PIPELINES_DIR to the folder holding default.pipeline."
        case let .streamingFailed(source, detail):
            return "\(source): \(detail)"
        case let .stateChangeFailed(to, detail):
            return "The pipeline could not go to \(to): \(detail)"
        case let .timeout(what, seconds):
            return "\(what) did not happen within \(Self.seconds(seconds))."
        case let .streamingStopped(device, reason):
            return "\(device) stopped streaming: \(Self.sentence(reason)). Unplug the camera and plug it back in "
                + "(or reload its driver), then start again."
        case let .streamStartFailed(device, reason):
            return "\(device) could not start streaming: \(Self.sentence(reason)). Close other programs that use "
                + "the camera, or unplug it and plug it back in, then try again."
        case let .stalled(device, seconds):
            return "\(device) stopped sending frames for \(Self.seconds(seconds)). Check its cable or connection "
                + "and start again."
        case let .notRunning(state):
            return "The camera session is not running (it is \(state)); start it first."
        case let .outputNotWritable(path, reason):
            return "Cannot write \(path): \(reason)."
        case let .outputExists(path):
            return "\(path) already exists; choose another name or allow overwriting (--overwrite)."
        case let .outputNotAPhotoFile(path, kind):
            return "\(path) is \(kind), not a photo file; it is never replaced. Choose a file name (or -o - for standard output)."
        case let .writeFailed(path, errno):
            return "Writing \(path) failed: \(Self.errnoText(errno)). Nothing was saved."
        case let .trashFailed(path, reason, fix):
            return "\(path) was not moved to the trash: \(Self.sentence(reason)). \(fix)"
        case let .controlUnknown(name, device, suggestions):
            let hint = suggestions.isEmpty ? "" : " Did you mean: \(suggestions.joined(separator: ", "))?"
            return "\(device) has no control named \"\(name)\".\(hint) List them with: gstcam controls"
        case let .controlOutOfRange(name, value, minimum, maximum, step):
            let stepText = step > 1 ? " in steps of \(step)" : ""
            return "\(value) is out of range for \(name): use \(minimum)…\(maximum)\(stepText), or a percentage (e.g. \(name)=50%)."
        case let .controlReadOnly(name, device):
            return "\(name) on \(device) is read-only."
        case let .controlInactive(name, device):
            return "\(name) on \(device) is inactive right now (another control, such as an automatic mode, overrides it)."
        case let .controlBadValue(name, value, expected):
            return "\"\(value)\" is not a valid value for \(name): expected \(expected)."
        case let .controlNotMenuItem(name, value, items):
            return "\(value) is not one of the items of \(name)'s menu, which are: \(items.joined(separator: ", ")). "
                + "Give an item's number or name."
        case let .torchUnavailable(device):
            return "Torch not available on this camera (\(device))."
        case let .flashUnavailable(device):
            return "Flash not available on this camera (\(device))."
        case let .focusUnavailable(device):
            return "Focus control not available on this camera (\(device))."
        case let .zoomUnavailable(device):
            return "Zoom not available on this camera (\(device))."
        case let .exposureUnavailable(device):
            return "Exposure control not available on this camera (\(device))."
        case let .noDeviceControls(pipeline):
            return "\(pipeline) has no camera device (it has no element named \"source\" with a device), so it has no camera controls."
        case let .serveFailed(what, address, port, detail):
            return "\(what) cannot serve on \(address):\(port): \(detail). Choose another port (0 takes any free one) or address."
        case let .noVideoEncoder(codec, tried):
            return "No \(codec) video encoder can be used here (\(tried.joined(separator: "; "))). Install one: "
                + "sudo apt-get install gstreamer1.0-plugins-ugly (x264enc) or gstreamer1.0-plugins-good (vp8enc)."
        case let .recordingFailed(path, detail):
            return "Recording to \(path) stopped: \(Self.sentence(detail)). The file holds what was recorded until then and "
                + "plays; free some space (or choose another folder) and record again."
        case let .alreadyRecording(path):
            return "The camera is already recording (to \(path)); stop that recording first."
        case let .audioUnavailable(detail):
            return "No sound input could be opened for the recording (\(Self.sentence(detail))). Connect a microphone or "
                + "start PipeWire/PulseAudio, or record without --audio."
        case let .noMotionJPEG(device, mode):
            return "\(device ?? "This pipeline") delivers no Motion-JPEG in the mode used (\(mode)), so there are no JPEG frames to "
                + "record without re-encoding. Choose a mode the camera sends as MJPEG (`gstcam devices` lists them; "
                + "--pipeline mjpeg picks one), or record with --codec h264."
        case let .zoomNotInCameraJPEG(factor):
            return "The camera is zoomed \((factor * 10).rounded() / 10)× digitally, but --codec mjpeg records the camera's own JPEG frames, "
                + "which are taken before the zoom (zooming them would mean decoding and re-encoding every frame). Record with "
                + "--codec h264 to keep the zoom, or set the zoom back to 1 (--zoom 1, or 0 on the camera screen) to record MJPEG."
        case .turnedNotInCameraJPEG:
            return "The picture is turned (--rotate 180 or --mirror), but --codec mjpeg records the camera's own JPEG frames, "
                + "which are taken before it is turned (turning them would mean decoding and re-encoding every frame). Record "
                + "with --codec h264 to keep it turned, or leave out --rotate and --mirror to record MJPEG."
        }
    }

    static func listing(_ devices: [String], none: String) -> String {
        devices.isEmpty ? none : "Cameras on this machine:\n" + devices.map { "  \($0)" }.joined(separator: "\n")
    }

    public static func errnoText(_ code: Int32) -> String {
        String(cString: strerror(code)) + " (errno \(code))"
    }

    /// A clause that goes inside a sentence: GStreamer's messages end with their own full stop.
    public static func sentence(_ text: String) -> String {
        var clause = Substring(text)
        while clause.last == "." || clause.last == " " { clause.removeLast() }
        return String(clause)
    }

    public static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
