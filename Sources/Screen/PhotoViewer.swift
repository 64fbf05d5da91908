import CGStreamer
import Dispatch
import Synchronization
import CameraErrors
import GStreamer
import LinuxSystem
import MediaFiles
import PipelineFiles

/// The gallery's photos, and recorded videos as their first frame, full-window one at a time
/// (pipelines/viewer.pipeline): ←/→, the wheel or a click on the left/right half browse, Delete moves the one
/// shown to the desktop trash (MediaFiles/Trash) and shows the next, Enter chooses it, Esc or q closes. A status
/// line says name, index/count and date ("▶ Video" first for a video).
///
/// Each photo is decoded on a pipeline of its own (pipelines/viewer.decoder) and pushed once into the window's
/// pipeline, which keeps one window open for the whole visit; keys and clicks come from the window sink's
/// navigation events (NavigationEvent), as on the camera screen.
public final class PhotoViewer: Sendable {
    /// How the visit ended: closed (Esc, q, the window) or a photo chosen with Enter.
    public enum Ending: Sendable, Equatable {
        case closed
        case chosen(path: String)
    }

    /// Element names viewer.pipeline gives its stages (pipelines/README.md).
    static let sourceElement = "picture"
    static let windowSizeElement = "window-size"
    static let statusElement = "status"
    static let messageElement = "message"
    static let sinkElement = "display"

    /// The colour (BGRx bytes) of the picture shown when there is no photo left, or one cannot be decoded.
    static let emptyShade: UInt8 = 0x20

    private let pipeline: Element
    private let source: Element
    private let sizer: Element
    private let sink: Element
    private let trash: Trash

    private struct State {
        var items: [ViewerItem]
        var index: Int
        /// The decoded picture shown now (nil: the empty picture).
        var picture: DecodedPicture?
        var fit: WindowFit
        var input: AsyncStream<ScreenInput>.Continuation?
        var closed = false
        var messageID = 0
        var refresher: Task<Void, Never>?
        /// The video being played in the window (space starts and stops it).
        var player: VideoPlayer?
    }
    private let state: Mutex<State>
    private let inputs: AsyncStream<ScreenInput>

    /// Opens the window on `items` (newest first, as the gallery lists them) showing `index`; nothing is shown
    /// until `run()`. Throws for an empty list, a missing pipeline file or a sink that cannot start.
    public static func open(items: [ViewerItem], showing index: Int = 0, sink: String, trash: Trash = Trash()) throws -> PhotoViewer {
        let file = try PipelineFile.load("viewer.pipeline")
        let pipeline = try PipelineParser.parsePipeline(try file.description(with: ["sink": sink]), file: file.path)
        func required(_ name: String, _ purpose: String) throws -> Element {
            guard let element = pipeline.child(named: name) else {
                throw CameraError.missingPipelineElement(file: file.path, name: name, purpose: purpose)
            }
            return element
        }
        let source = try required(sourceElement, "the appsrc the photos enter")
        let sizer = try required(windowSizeElement, "the capsfilter that sizes the picture to the window")
        let sinkElement = try required(sinkElement, "the window sink")
        _ = try required(statusElement, "the status line's textoverlay")
        _ = try required(messageElement, "the message textoverlay")
        let first = items.indices.contains(index) ? items[index].size : items.first?.size
        let frame = first.map { ($0.width, $0.height) } ?? (640, 480)
        let fit = WindowFit.initial(frame: frame, screen: DisplayCheck.x11ScreenSize())
        let viewer = PhotoViewer(pipeline: pipeline, source: source, sizer: sizer, sink: sinkElement, trash: trash,
                                 state: State(items: items, index: min(max(0, index), max(0, items.count - 1)), fit: fit))
        sizer.setCaps("caps", viewer.windowCaps(fit))
        viewer.listenToWindow()
        guard pipeline.setState(GST_STATE_PLAYING) != .failure else {
            let reason = viewer.busError() ?? "the window sink \(sink) did not start"
            pipeline.setState(GST_STATE_NULL)
            throw CameraError.stateChangeFailed(to: "PLAYING", detail: "the photo viewer (\(file.path)): \(reason)")
        }
        viewer.watchBus()
        return viewer
    }

    /// The video sink for the viewer's window: `requested` (a window sink whose display answers), else the one the
    /// camera screen would choose. Throws, saying why and what to do, when no window can be opened.
    public static func windowSink(_ requested: String?, environment: [String: String]) throws -> String {
        let output: PreviewOutput
        do {
            output = try PreviewOutput.choose(sink: requested, environment: environment, onTerminal: false)
        } catch let unavailable as DisplayUnavailable {
            throw ViewerUnavailable(problem: unavailable.problem)
        }
        guard case let .window(sink) = output else {
            throw ViewerUnavailable(problem: requested.map { "--sink \($0) opens no window" } ?? "neither DISPLAY nor WAYLAND_DISPLAY is set")
        }
        return sink
    }

    private init(pipeline: Element, source: Element, sizer: Element, sink: Element, trash: Trash, state: State) {
        self.pipeline = pipeline
        self.source = source
        self.sizer = sizer
        self.sink = sink
        self.trash = trash
        self.state = Mutex(state)
        let (stream, continuation) = AsyncStream.makeStream(of: ScreenInput.self)
        inputs = stream
        self.state.withLock { $0.input = continuation }
    }

    /// The photos and videos left (a Delete takes one out).
    public var items: [ViewerItem] { state.withLock { $0.items } }

    /// Shows the photos and follows keys and clicks until Esc, q, Enter or the window closing; the window is
    /// closed when it returns.
    public func run() async -> Ending {
        await show()
        showMessage("← → browse · Delete: to the trash · Enter: choose · Esc: close", for: .seconds(3))
        keepShowing()
        defer { close() }
        for await input in inputs {
            switch input {
            case let .key(name):
                switch name {
                // A video: space plays it in the window and stops it; Esc stops it before it closes the viewer.
                case "space" where current?.isVideo == true: togglePlayback()
                case "Escape" where stopPlayback(): break
                case "Left", "KP_Left", "Page_Up", "BackSpace": await step(-1)
                case "Right", "KP_Right", "Page_Down", "space": await step(1)
                case "Home": await step(-Int.max / 2)
                case "End": await step(Int.max / 2)
                case "Delete", "KP_Delete": await trashShown()
                case "Return", "KP_Enter":
                    if let photo = current { return .chosen(path: photo.path) }
                    showMessage("No photo to choose", for: .seconds(2))
                case "Escape", "q", "Q": return .closed
                default: break
                }
            case let .click(point):
                await step(point.x < 0.5 ? -1 : 1)
            case let .scroll(steps, _):
                await step(steps > 0 ? -1 : 1)
            case .windowClosed:
                return .closed
            }
        }
        return .closed
    }

    /// Plays the video shown, or stops the one playing.
    private func togglePlayback() {
        if stopPlayback() {
            showMessage("Stopped", for: .seconds(1))
            return
        }
        guard let video = current, video.isVideo else { return }
        do {
            let player = try VideoPlayer.start(path: video.path, frame: { [weak self] picture in
                guard let self else { return }
                self.state.withLock { $0.picture = picture }
                self.push()
            }, ended: { [weak self] failure in
                guard let self else { return }
                self.state.withLock { $0.player = nil }
                self.showMessage(failure.map { "Cannot play \(video.name): \($0)" } ?? "End of the video", for: .seconds(failure == nil ? 2 : 5))
            })
            state.withLock { $0.player = player }
            showMessage("▶ Playing · space or Esc stops", for: .seconds(2))
        } catch {
            showMessage("Cannot play \(video.name): \(error)", for: .seconds(5))
        }
    }

    /// Stops the video playing, if one is; whether one was.
    @discardableResult
    private func stopPlayback() -> Bool {
        guard let player = state.withLock({ state -> VideoPlayer? in
            defer { state.player = nil }
            return state.player
        }) else { return false }
        player.stop()
        return true
    }

    /// Closes the window (also ends a `run()` in progress).
    public func close() {
        stopPlayback()
        let (input, watch, wasClosed) = state.withLock { state in
            defer {
                state.closed = true
                state.input = nil
                state.refresher = nil
            }
            return (state.input, state.refresher, state.closed)
        }
        watch?.cancel()
        input?.finish()
        if !wasClosed { pipeline.setState(GST_STATE_NULL) }
    }

    deinit { close() }

    private var current: ViewerItem? {
        state.withLock { $0.items.indices.contains($0.index) ? $0.items[$0.index] : nil }
    }

    /// Moves by `offset` photos, stopping at the first and the last (said on the screen).
    private func step(_ offset: Int) async {
        stopPlayback()
        let moved: Bool? = state.withLock { state in
            guard !state.items.isEmpty else { return nil }
            let target = min(max(0, state.index.addingReportingOverflow(offset).partialValue), state.items.count - 1)
            defer { state.index = target }
            return target != state.index
        }
        guard let moved else { return }
        if moved {
            await show()
        } else {
            showMessage(offset < 0 ? "This is the newest photo" : "This is the oldest photo", for: .seconds(1))
        }
    }

    /// Moves the photo shown to the trash and shows the next one (the previous one after the last).
    private func trashShown() async {
        guard let photo = current else { return }
        stopPlayback()
        do {
            try trash.moveToTrash(photo.path)
        } catch {
            showMessage("\(error)", for: .seconds(5))
            Standard.error.write("gstcam: \(error)\n")
            return
        }
        state.withLock { state in
            state.items.removeAll { $0.path == photo.path }
            state.index = min(state.index, max(0, state.items.count - 1))
        }
        await show()
        showMessage("Moved \(photo.name) to the trash", for: .seconds(2))
    }

    /// Decodes the current photo and pushes it with its status line.
    private func show() async {
        guard let photo = current else {
            state.withLock { $0.picture = nil }
            setText(Self.statusElement, "No photos left")
            push()
            return
        }
        let decoded = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: DecodedPicture.decode(photo.path, orientation: photo.orientation)) }
        }
        let (index, count) = state.withLock { ($0.index, $0.items.count) }
        var parts = (photo.isVideo ? ["▶ Video"] : []) + [photo.name, "\(index + 1)/\(count)", photo.displayDate]
        if let size = photo.size { parts.append("\(size.width)×\(size.height)") }
        setText(Self.statusElement, parts.joined(separator: " · "))
        switch decoded {
        case let .success(picture):
            state.withLock { $0.picture = picture }
        case let .failure(failure):
            state.withLock { $0.picture = nil }
            showMessage("Cannot show \(photo.name): \(failure.reason)", for: .seconds(5))
        }
        push()
    }

    /// The picture shown now into the window, stamped with the pipeline's running time.
    private func push() {
        let (picture, fit) = state.withLock { ($0.picture, $0.fit) }
        guard let sample = picture?.sample ?? DecodedPicture.empty(fit)?.sample else { return }
        guard let buffer = gst_sample_get_buffer(sample.pointer), let copy = gst_buffer_copy(buffer) else { return }
        var now: GstClockTime = 0
        if let clock = gst_element_get_clock(pipeline.pointer) {
            now = gst_clock_get_time(clock) &- gst_element_get_base_time(pipeline.pointer)
            gst_object_unref(clock)
        }
        copy.pointee.pts = now
        copy.pointee.dts = gstcam_clock_time_none()
        copy.pointee.duration = gstcam_clock_time_none()
        guard let stamped = gst_sample_new(copy, gst_sample_get_caps(sample.pointer), nil, nil) else {
            gst_buffer_unref(copy)
            return
        }
        gst_buffer_unref(copy)
        _ = gstcam_app_src_push_sample(source.pointer, stamped)
        gst_sample_unref(stamped)
    }

    private func setText(_ element: String, _ text: String) {
        pipeline.child(named: element)?.set("text", text)
    }

    /// A message at the top for `duration`; the picture is pushed again so it shows at once and when it goes.
    private func showMessage(_ text: String, for duration: Duration) {
        let id = state.withLock { state in
            state.messageID += 1
            return state.messageID
        }
        setText(Self.messageElement, text)
        push()
        Task { [weak self] in
            try? await Task.sleep(for: duration)
            guard let self, self.state.withLock({ $0.messageID == id && !$0.closed }) else { return }
            self.setText(Self.messageElement, "")
            self.push()
        }
    }

    private func windowCaps(_ fit: WindowFit) -> String { fit.caps + ",pixel-aspect-ratio=1/1" }

    /// The picture again twice a second: a sink draws only the frames it gets, and the first one can arrive before
    /// its window is mapped (nothing would show until the next key). For sinks that do not scale (ximagesink) the
    /// picture also follows the window's size, each photo letterboxed in it by videoscale, as CameraWindow does
    /// for the camera.
    private func keepShowing() {
        let follows = WindowFit.nonScalingSinks.contains(sink.factoryName ?? "")
        let refresher = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                guard let self, !self.state.withLock({ $0.closed }) else { return }
                let window = (Int(self.sink.uint64("window-width")), Int(self.sink.uint64("window-height")))
                if follows, window.0 >= 16, window.1 >= 16 {
                    let wanted = WindowFit(width: window.0 & ~1, height: window.1 & ~1)
                    let changed = self.state.withLock { state in
                        defer { state.fit = wanted }
                        return state.fit != wanted
                    }
                    if changed { self.sizer.setCaps("caps", self.windowCaps(wanted)) }
                }
                self.push()
            }
        }
        state.withLock { $0.refresher = refresher }
    }

    // MARK: The window's events

    private func deliver(_ input: ScreenInput) {
        state.withLock { $0.input }?.yield(input)
    }

    /// Keys, clicks and the wheel: the navigation events the sink sends upstream, stopped at its input.
    private func listenToWindow() {
        guard let input = sink.staticPad("sink") else { return }
        let pad = ProbedPad(input)
        input.addProbe(GST_PAD_PROBE_TYPE_EVENT_UPSTREAM) { [weak self] data in
            guard let self, let event = gstcam_probe_info_event(data.info), let size = pad.videoInfo,
                  let received = NavigationEvent.input(from: event, width: size.width, height: size.height) else {
                return GST_PAD_PROBE_OK
            }
            self.deliver(received)
            return GST_PAD_PROBE_DROP
        }
    }

    /// The pipeline's bus on a thread of its own: an error (the window closed by the user, a failed sink) ends the
    /// visit.
    private func watchBus() {
        guard let bus = pipeline.bus else { return }
        BlockingThread.start(named: "gstcam-viewer-bus") { [weak self] in
            let mask = GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue)
            while let viewer = self, !viewer.state.withLock({ $0.closed }) {
                guard let message = gst_bus_timed_pop_filtered(bus.pointer, 100_000_000, mask) else { continue }
                defer { gst_message_unref(message) }
                viewer.deliver(.windowClosed(reason: Self.errorText(message)))
            }
        }
    }

    /// The first error already on the bus, in words.
    private func busError() -> String? {
        guard let bus = pipeline.bus,
              let message = gst_bus_pop_filtered(bus.pointer, GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue)) else { return nil }
        defer { gst_message_unref(message) }
        return Self.errorText(message)
    }

    static func errorText(_ message: UnsafeMutablePointer<GstMessage>) -> String {
        var error: UnsafeMutablePointer<GError>?
        gst_message_parse_error(message, &error, nil)
        defer { if let error { g_error_free(error) } }
        return error.flatMap { $0.pointee.message }.map { String(cString: $0) } ?? "unknown error"
    }
}

/// The viewer cannot open a window: why, and what to do.
struct ViewerUnavailable: Error, CustomStringConvertible {
    let problem: String
    var description: String {
        "the photo viewer needs a window: \(problem). Run it in a desktop session (or point DISPLAY or WAYLAND_DISPLAY at "
            + "a display that runs); `gstcam gallery` lists the photos without one."
    }
}

/// One decoded picture (BGRx), held as the GstSample the decoder gave.
///
/// `@unchecked Sendable`: the sample is never written after decoding (pushes use a copy of its buffer), and
/// GstSample reference counting is atomic.
final class DecodedPicture: @unchecked Sendable {
    struct Failure: Error { let reason: String }

    let sample: OwnedSample

    init(_ sample: OwnedSample) { self.sample = sample }

    /// videoflip's video-direction for each EXIF Orientation (1…8): what turns the stored pixels upright.
    static let flips = [1: "identity", 2: "horiz", 3: "180", 4: "vert", 5: "ul-lr", 6: "90r", 7: "ur-ll", 8: "90l"]

    /// The first frame of `path` through pipelines/viewer.decoder, within 10 s, turned upright by its EXIF
    /// `orientation` (decodebin does not apply the JPEG's orientation tag itself).
    static func decode(_ path: String, orientation: Int = 1) -> Result<DecodedPicture, Failure> {
        let pipeline: Element
        do {
            let file = try PipelineFile.load("viewer.decoder")
            let flip = flips[orientation] ?? "identity"
            pipeline = try PipelineParser.parsePipeline(try file.description(with: ["path": path, "flip": flip]), file: file.path)
        } catch {
            return .failure(Failure(reason: "\(error)"))
        }
        defer { pipeline.setState(GST_STATE_NULL) }
        guard let sink = pipeline.child(named: "frame") else { return .failure(Failure(reason: "viewer.decoder has no appsink named frame")) }
        guard pipeline.setState(GST_STATE_PLAYING) != .failure else {
            return .failure(Failure(reason: pipeline.bus.flatMap(firstError) ?? "the decoder did not start"))
        }
        guard let sample = gst_app_sink_try_pull_sample(gstcam_as_app_sink(sink.pointer), 10_000_000_000) else {
            return .failure(Failure(reason: pipeline.bus.flatMap(firstError) ?? "it has no picture"))
        }
        return .success(DecodedPicture(OwnedSample(sample)))
    }

    private static func firstError(_ bus: Bus) -> String? {
        guard let message = gst_bus_pop_filtered(bus.pointer, GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue)) else { return nil }
        defer { gst_message_unref(message) }
        return PhotoViewer.errorText(message)
    }

    /// A plain dark picture of the window's size: no photo left, or one that cannot be decoded.
    static func empty(_ fit: WindowFit) -> DecodedPicture? {
        let size = fit.width * fit.height * 4
        guard let buffer = gst_buffer_new_allocate(nil, gsize(size), nil) else { return nil }
        _ = gst_buffer_memset(buffer, 0, PhotoViewer.emptyShade, gsize(size))
        guard let caps = gst_caps_from_string("video/x-raw,format=BGRx,width=\(fit.width),height=\(fit.height),framerate=0/1,pixel-aspect-ratio=1/1") else {
            gst_buffer_unref(buffer)
            return nil
        }
        let sample = gst_sample_new(buffer, caps, nil, nil)
        gst_buffer_unref(buffer)
        gst_mini_object_unref(UnsafeMutableRawPointer(caps).assumingMemoryBound(to: GstMiniObject.self))
        return sample.map { DecodedPicture(OwnedSample($0)) }
    }
}

/// A GstSample reference this code owns, released with it.
///
/// `@unchecked Sendable`: GstSample reference counting is atomic and the sample is only read.
final class OwnedSample: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { gst_sample_unref(pointer) }
}
