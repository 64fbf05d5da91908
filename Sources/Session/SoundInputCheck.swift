import Synchronization
import CGStreamer
import GStreamer
import PipelineFiles

/// Whether the default sound input gives sound, tried in a small pipeline of its own before a recording with
/// `RecordingAudio.deviceIfAvailable` starts: the recording then gets sound or none, and a source that fails
/// (or opens and never delivers, as OpenAL's does with no card) never touches the camera's pipeline.
enum SoundInputCheck {
    /// Nil when the first sound arrives within `timeout`; else what went wrong, for the warning.
    static func problem(timeout: Duration = .seconds(3)) -> String? {
        let pipeline: Element
        do {
            let source = try PipelineFile.load(RecordingAudio.device.sourceFile)
            pipeline = try PipelineParser.parsePipeline(try source.description(with: [:]) + " ! appsink name=sound-check sync=false",
                                                        file: source.path)
        } catch {
            return "\(error)"
        }
        guard let sink = pipeline.child(named: "sound-check"), let bus = pipeline.bus else { return "the sound check could not be built" }
        let heard = Atomic<Bool>(false)
        AppSink.setSampleHandler(sink) { _ in heard.store(true, ordering: .relaxed) }
        defer { _ = pipeline.setState(GST_STATE_NULL) }
        if pipeline.setState(GST_STATE_PLAYING) == .failure {
            if case .error(let error)? = bus.pop(timeout: 0) { return error.message }
            return "the default sound input could not be started"
        }
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            if heard.load(ordering: .relaxed) { return nil }
            if case .error(let error)? = bus.pop(timeout: 50_000_000) { return error.message }
        }
        return heard.load(ordering: .relaxed) ? nil : "no sound came from the default input within \(timeout.inSeconds) s"
    }
}
