import CGStreamer
import Dispatch
import Synchronization
import CameraErrors
import GStreamer
import LinuxSystem
import MediaFiles
import PipelineFiles

/// The recording branch of a running pipeline: an encoder branch file (pipelines/record-<encoder>.branch)
/// followed by a writer branch file (record-mp4/webm.branch, or record-segments-*.branch), added at the tee
/// while the camera runs and removed once the writer has finished its file.
///
/// Frames enter only through a probe on the branch's tee pad, which hands each one to the branch itself
/// (`gst_pad_chain`) and always answers the tee with OK: a branch that fails (a full disk makes the file sink,
/// then the muxer, the encoder and the input queue return errors) can never stop the camera or the preview.
/// The same probe drops frames while paused and after the end was sent.
///
/// Time: the writer's input pad is shifted (`gst_pad_set_offset`) by the first encoded frame's timestamp, so
/// the file starts at 0 whenever the recording starts; a pause adds its length to the shift when the first
/// frame after it reaches the writer.
///
/// Stopping sends EOS into the branch; the writer bin forwards its sink's EOS to the bus (`message-forward`),
/// where the session hands it to `handle(_:)`: the file is then complete and the branch is removed.
final class RecordBranch: Sendable {
    private struct State {
        var accepting = true
        var paused = false
        /// Frames the tee offered while recording (not paused).
        var framesIn = 0
        /// Encoded frames that reached the writer.
        var framesOut = 0
        var firstTimestamp: GstClockTime?
        var lastTimestamp: GstClockTime = 0
        var lastDuration: GstClockTime = 0
        /// The newest raw frame's timestamp (for the length of a pause).
        var lastInput: GstClockTime?
        /// When a pause began (the last raw frame before it).
        var pausedAfter: GstClockTime?
        /// Pauses waiting for their first frame to reach the writer: from that timestamp on, time is shifted by `gap` more.
        var pendingGaps: [(from: GstClockTime, gap: GstClockTime)] = []
        var shift: GstClockTime = 0
        var failure: CameraError?
        /// The first raw frame's timestamp, for `limit`.
        var firstInput: GstClockTime?
        /// The pauses' lengths so far (raw side).
        var pauseTotal: GstClockTime = 0
        /// With pre-roll, false until `begin()`: encoded frames are kept in `held` instead of written.
        var begun = true
        /// Pre-roll: the newest encoded frames, from a keyframe at least `preRoll` before the newest one.
        var held: [HeldBuffer] = []
        /// Whether the sound's time has been shifted like the video's (at the cut).
        var audioShifted = false
        /// Recording sound: when its first raw buffer begins, once one has reached the sound encoder. Frames are
        /// taken only from then on, and only from that instant on, so the sound is there from the first frame: a
        /// sound source slow to start (a loaded machine) made files whose sound began 0.1–0.3 s after the picture,
        /// with mp4mux writing that late first sound frame out of order (ffmpeg: "non monotonically increasing
        /// dts"); and a frame older than the first sound (the sound linked to a tee just after that frame's sound
        /// had passed it) made the sound begin one frame late (WebM: sound starting at 0.033 s).
        var soundStart: GstClockTime?
        /// Where the sound ends (the video's end, in the sources' time), once the video has ended: the sound source
        /// lags behind real time on a loaded machine, so ending it at the same moment as the video would cut the
        /// sound short by that lag. Sound from this time on is dropped and its source is then ended.
        var soundEnd: GstClockTime?
        /// Whether the sound source has been sent its end.
        var soundEnded = false
        /// Where the sound is cut to begin: the first video frame's timestamp, once it has been taken.
        var soundCut: GstClockTime?
        /// Raw sound that came before the first video frame was known (the newest second of it): the part from the
        /// frame's instant on is passed on when it is known, so a slow video path does not cost the sound's start.
        var heldSound: [HeldBuffer] = []
        /// The newest encoded sound timestamp passed to the muxer (its input must only go forward).
        var lastSound: GstClockTime?
    }

    private let state = Mutex(State())
    private let branches: TeeBranches
    /// The whole branch (encoder bin + writer bin) as the tee's owner holds it.
    private let branch: TeeBranch
    private let branchInput: Pad
    private let feed: Pad
    /// The file (a segmented recording's first), for messages.
    var path: String { location.withLock { $0 } }
    private let location: Mutex<String>
    /// The writer's file sink (or splitmuxsink), whose `location` a pre-roll may change before it begins.
    private let sink: Element
    let writerFile: String
    /// Set once the writer's sink has received EOS (the file is complete).
    private let ended = OneShot<Void>()
    private let endedSignal = DispatchSemaphore(value: 0)
    private let removed = Atomic<Bool>(false)
    /// Called once with the first frame written, and with a failure of the branch.
    private let onStarted: @Sendable () -> Void
    private let onFailed: @Sendable (CameraError) -> Void
    /// Called once when the writer has finished the file (after `finish` or the limit).
    private let onEnded: @Sendable () -> Void
    /// With a duration asked: frames from this long after the first one on are not taken, and the end is sent.
    private let limit: GstClockTime?
    /// How much encoded video is kept before `begin()` (nil: none, the writer is linked at once).
    private let preRoll: GstClockTime?
    /// The outer bin and the writer, kept apart until `begin()` when pre-rolling.
    private let bin: Element
    private let writerBin: Element
    private let writerInput: Pad
    /// The writer's sound input (its muxer's), linked to the sound encoder at once or, pre-rolling, at `begin()`.
    private let writerSound: Pad?
    /// The sound source (`audio-source`), when recording sound: it gets the EOS too when the recording ends.
    private let audioSource: Element?
    private let audioFeed: Pad?
    /// The raw sound on its way to the sound encoder (`audio-start` in record-audio-*.branch): cut there.
    private let rawSoundFeed: Pad?
    /// The sound encoder's priming (`audio-encoder`'s, in samples): that much more of the sound is cut.
    private let soundPriming: Int
    /// Sound taken from the pipeline's own `sound` tee: that tee's owner and the pad it feeds the branch through.
    private let soundLink: (branches: TeeBranches, branch: TeeBranch)?

    /// Names given to the bins: errors whose element path has them are the recording's (bus debug text
    /// names the path: ".../GstBin:recording/GstBin:recording-writer/GstFileSink:record-sink").
    static let binName = "recording"
    static let encoderBinName = "recording-encoder"
    static let writerBinName = "recording-writer"
    static let sinkName = "record-sink"

    /// Parses the encoder and writer files, joins them into one bin and hangs it off the tee through `branches`.
    /// With `soundTee`, `audio.source` is fed from that tee (the pipeline's own sound) instead of making sound.
    init(branches: TeeBranches, encoder: PipelineFile, writer: PipelineFile, parameters: [String: String],
         path: String, limit: Duration?, preRoll: Duration? = nil,
         audio: (source: PipelineFile, encoder: PipelineFile)? = nil, soundTee: TeeBranches? = nil, onStarted: @escaping @Sendable () -> Void,
         onFailed: @escaping @Sendable (CameraError) -> Void, onEnded: @escaping @Sendable () -> Void) throws {
        self.branches = branches
        location = Mutex(path)
        self.writerFile = writer.path
        self.onStarted = onStarted
        self.onFailed = onFailed
        self.onEnded = onEnded
        self.limit = limit.map { GstClockTime(max(0, $0.inSeconds) * 1e9) }
        self.preRoll = preRoll.map { GstClockTime(max(0, $0.inSeconds) * 1e9) }
        let encodeBin = try PipelineParser.parseBin(try encoder.description(with: parameters), file: encoder.path,
                                                    inputCaps: branches.inputCaps)
        let writerBin = try PipelineParser.parseBin(try writer.description(with: parameters), file: writer.path)
        // A writer has no output, but parsing ghosts every unlinked pad it finds, even inside a sink bin:
        // splitmuxsink makes its muxer at once, and a ghost on the muxer's output would keep it from its file sink.
        if let ghost = writerBin.staticPad("src") { gst_element_remove_pad(writerBin.pointer, ghost.pointer) }
        encodeBin.set("name", Self.encoderBinName)
        if let encoder = encodeBin.child(named: "encoder") { OpenH264Drain.skip(in: encoder) }
        writerBin.set("name", Self.writerBinName)
        // The writer's EOS must reach the bus (a bin keeps its children's EOS to itself until all its sinks are done,
        // and the pipeline until the preview is done too).
        writerBin.set("message-forward", true)
        guard let sink = writerBin.child(named: Self.sinkName) else {
            throw CameraError.missingPipelineElement(file: writer.path, name: Self.sinkName, purpose: "the sink that writes the video file")
        }
        self.sink = sink
        // A sink joining a playing pipeline must not wait for preroll (it would hold the preview's state).
        if sink.hasProperty("async") { sink.set("async", false) }
        if sink.hasProperty("start-index") { sink.set("start-index", Int32(1)) }
        guard let encoderInput = encodeBin.staticPad("sink"), let encodeOutput = encodeBin.staticPad("src"),
              let writerInput = writerBin.staticPad("sink") else {
            throw CameraError.badPipelineFile(file: encoder.path, detail: "a recording branch must start with an unlinked sink pad "
                + "and end with an unlinked source pad (the encoder), and its writer must start with an unlinked sink pad")
        }
        let bin = Element(owning: gst_bin_new(Self.binName))
        self.bin = bin
        self.writerBin = writerBin
        self.writerInput = writerInput
        // Pre-rolling, the writer joins at `begin()`: its file is made only then.
        let writerNow = preRoll == nil
        if !writerNow { state.withLock { $0.begun = false } }
        guard bin.add(encodeBin), !writerNow || (bin.add(writerBin) && encodeOutput.link(to: writerInput) == .ok),
              let input = Pad.ghost("sink", target: encoderInput), gst_element_add_pad(bin.pointer, input.pointer) != 0 else {
            bin.setState(GST_STATE_NULL)
            throw CameraError.negotiationFailed(device: nil, detail: "\(encoder.path) could not be linked to \(writer.path)")
        }
        branchInput = input
        feed = encodeOutput
        if let audio {
            let source = try PipelineParser.parseBin(try audio.source.description(with: [:]), file: audio.source.path)
            let encoder = try PipelineParser.parseBin(try audio.encoder.description(with: [:]), file: audio.encoder.path)
            source.set("name", "recording-audio-source")
            encoder.set("name", "recording-audio-encoder")
            // The muxer's audio pad: mp4mux/webmmux are named `muxer`; splitmuxsink (`record-sink`) has its own, and
            // must be asked itself: its current muxer is also named `muxer` (a bin's lookup by name goes into the sink's
            // own bin), and sound given to that one would all go into the first file.
            let muxer = sink.hasProperty("muxer-factory") ? sink : writerBin.child(named: "muxer") ?? sink
            guard let sourceOutput = source.staticPad("src"), let encoderInput = encoder.staticPad("sink"),
                  let encoderOutput = encoder.staticPad("src"), bin.add(source), bin.add(encoder),
                  sourceOutput.link(to: encoderInput) == .ok, let muxerInput = muxer.requestPad("audio_%u"),
                  // The muxer is inside the writer's bin: the sound reaches it through a ghost pad of that bin.
                  let writerAudio = Pad.ghost("audio", target: muxerInput),
                  gst_element_add_pad(writerBin.pointer, writerAudio.pointer) != 0,
                  !writerNow || encoderOutput.link(to: writerAudio) == .ok else {
                bin.setState(GST_STATE_NULL)
                throw CameraError.negotiationFailed(device: nil, detail: "\(audio.encoder.path) could not be linked to \(writer.path)'s muxer")
            }
            guard let start = encoder.child(named: "audio-start"), let startOutput = start.staticPad("src") else {
                bin.setState(GST_STATE_NULL)
                throw CameraError.missingPipelineElement(file: audio.encoder.path, name: "audio-start",
                                                         purpose: "where the sound is cut to start with the first video frame")
            }
            audioSource = source.child(named: "audio-source")
            audioFeed = encoderOutput
            writerSound = writerAudio
            rawSoundFeed = startOutput
            soundPriming = SoundEncoderPriming.samples(factory: encoder.child(named: "audio-encoder")?.factoryName)
        } else {
            audioSource = nil
            audioFeed = nil
            writerSound = nil
            rawSoundFeed = nil
            soundPriming = 0
        }
        // Set once `branch` exists; frames arrive only after linking, when it does.
        let owner = Mutex<RecordBranch?>(nil)
        // The probes are in place before the branch starts: the sound source starts with it, and a first sound
        // buffer that got past them (neither held for the cut nor shifted) reached the muxer ahead of the others,
        // timed up to the first video frame's time later than them — mp4mux then wrote the sound's first frames
        // out of order ("non monotonically increasing dts"), when the machine was slow between starting the branch
        // and adding the probes. Until the branch exists its sound is dropped.
        feed.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { probe in
            guard let self = owner.withLock({ $0 }), let buffer = probe.buffer else { return GST_PAD_PROBE_OK }
            return self.encoded(buffer)
        }
        audioFeed?.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { probe in
            guard let self = owner.withLock({ $0 }), let buffer = probe.buffer else { return GST_PAD_PROBE_DROP }
            return self.sound(buffer)
        }
        rawSoundFeed?.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { probe in
            guard let self = owner.withLock({ $0 }), probe.buffer != nil else { return GST_PAD_PROBE_DROP }
            return self.rawSound(probe)
        }
        do {
            branch = try branches.attach(bin, input: input) { teePad in
                // The branch takes the frames as they are (its videoconvert accepts any raw format): its RECONFIGURE
                // must not reach the camera, whose source would renegotiate — and a driver that refuses a format
                // change while streaming (vivid: EBUSY) would fail the session.
                teePad.addProbe(GST_PAD_PROBE_TYPE_EVENT_UPSTREAM) { probe in
                    guard let event = gstcam_probe_info_event(probe.info) else { return GST_PAD_PROBE_OK }
                    return gstcam_event_type(event) == GST_EVENT_RECONFIGURE ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK
                }
                teePad.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { probe in
                    if let self = owner.withLock({ $0 }), let buffer = probe.buffer { self.offer(buffer) }
                    return GST_PAD_PROBE_DROP
                }
            }
        } catch {
            throw CameraError.negotiationFailed(device: nil, detail: "the recording branch could not be linked to the tee (\(error))")
        }
        if let soundTee {
            do {
                soundLink = (soundTee, try Self.linkSound(from: soundTee, into: bin) { buffer, input in
                    owner.withLock { $0 }?.offerSound(buffer, to: input)
                })
            } catch {
                branches.detach(branch)
                throw error
            }
        } else {
            soundLink = nil
        }
        owner.withLock { $0 = self }
    }

    /// Links the pipeline's `sound` tee to the sound source branch (`audio-source`'s bin, already running in
    /// `bin`) through a ghost pad of `bin`. As with the video, sound enters only through a probe that hands each
    /// buffer to the branch and always answers the tee with OK: the tee also feeds the pipeline's own picture, so
    /// a recording that ends or fails must not stop it.
    private static func linkSound(from soundTee: TeeBranches, into bin: Element,
                                  offer: @escaping @Sendable (UnsafeMutablePointer<GstBuffer>, Pad) -> Void) throws -> TeeBranch {
        guard let source = bin.child(named: "recording-audio-source"), let sourceInput = source.staticPad("sink"),
              let input = Pad.ghost("audio-sink", target: sourceInput), gst_element_add_pad(bin.pointer, input.pointer) != 0 else {
            throw CameraError.negotiationFailed(device: nil, detail: "the recording's sound source branch has no input for the "
                + "pipeline's `sound` tee: it must start with an unlinked sink pad (a queue)")
        }
        do {
            return try soundTee.link(bin, input: input) { teePad in
                teePad.addProbe(GST_PAD_PROBE_TYPE_BUFFER) { probe in
                    if let buffer = probe.buffer { offer(buffer, input) }
                    return GST_PAD_PROBE_DROP
                }
            }
        } catch {
            throw CameraError.negotiationFailed(device: nil, detail: "the recording's sound could not be linked to the pipeline's `sound` tee (\(error))")
        }
    }

    // MARK: Streaming threads

    /// Every sound buffer the pipeline's `sound` tee offers: handed to the branch until its sound has ended.
    private func offerSound(_ buffer: UnsafeMutablePointer<GstBuffer>, to input: Pad) {
        guard gst_pad_has_current_caps(input.pointer) != 0,
              state.withLock({ $0.failure == nil && !$0.soundEnded }) else { return }
        _ = gst_pad_chain(input.pointer, gst_buffer_ref(buffer))
    }

    /// Every frame reaching the branch's tee pad: handed to the branch unless paused or ending; the branch's
    /// answer never reaches the tee.
    private func offer(_ buffer: UnsafeMutablePointer<GstBuffer>) {
        let pts = buffer.pointee.pts
        // Until the tee has linked the pad and sent the stream's events (caps) along it, a frame could not be
        // encoded (not-negotiated): the first frames pushed between adding the probe and linking are skipped.
        guard gst_pad_has_current_caps(branchInput.pointer) != 0 else { return }
        let limit = self.limit
        let (take, last): (Bool, Bool) = state.withLock { state in
            guard state.accepting, state.failure == nil else { return (false, false) }
            if audioFeed != nil {
                // A sound whose clock runs more than a second ahead of the frames' is not waited for.
                guard let soundStart = state.soundStart, pts >= soundStart || soundStart - pts > 1_000_000_000 else { return (false, false) }
            }
            if state.paused {
                return (false, false)
            }
            // Pre-rolling: frames are encoded and kept, not yet counted.
            guard state.begun else { return (true, false) }
            // Frames of the asked duration: [first, first + limit), counted in the camera's time, minus pauses.
            let first = state.firstInput ?? pts
            state.firstInput = first
            if audioFeed != nil, state.soundCut == nil { state.soundCut = first }
            if let limit, pts &- first &- state.pauseTotal >= limit &- limit / 1000 {
                state.accepting = false
                return (false, true)
            }
            if let pausedAfter = state.pausedAfter {
                // The first frame after a pause: from it on, time is shifted by the pause's length.
                let frame = state.lastDuration > 0 ? state.lastDuration : 0
                let gap = pts > pausedAfter + frame ? pts - pausedAfter - frame : 0
                state.pendingGaps.append((from: pts, gap: gap))
                state.pauseTotal += gap
                state.pausedAfter = nil
            }
            state.framesIn += 1
            state.lastInput = pts
            return (true, false)
        }
        if last {
            _ = gst_pad_send_event(branchInput.pointer, gst_event_new_eos())
            endSound(at: pts)
        }
        guard take else { return }
        let result = gst_pad_chain(branchInput.pointer, gst_buffer_ref(buffer))
        if result != GST_FLOW_OK && result != GST_FLOW_FLUSHING {
            // The bus error that caused it (e.g. ENOSPC from the file sink) says more; this is the fallback.
            fail(.recordingFailed(path: path, detail: "the recording branch stopped (\(Self.flowName(result)))"))
        }
    }

    /// Every encoded frame on its way to the writer.
    /// Every encoded frame leaving the encoder: kept while pre-rolling, else written (after the kept ones).
    private func encoded(_ buffer: UnsafeMutablePointer<GstBuffer>) -> GstPadProbeReturn {
        let (keep, flush): (Bool, [HeldBuffer]) = state.withLock { state in
            if !state.begun {
                state.held.append(HeldBuffer(buffer))
                Self.trim(&state.held, keeping: preRoll ?? 0)
                return (true, [])
            }
            defer { state.held = [] }
            return (false, state.held)
        }
        if keep { return GST_PAD_PROBE_DROP }
        // The first frame after `begin()`: the kept ones go first, from this streaming thread, so order holds.
        // (Each push passes this probe again, which counts it and sets the file's start at the first.)
        for held in flush { gst_pad_push(feed.pointer, held.take()) }
        written(buffer)
        return GST_PAD_PROBE_OK
    }

    /// Every raw sound buffer on its way to the sound encoder: held until the first video frame is taken, then cut
    /// to start at that frame's instant, to the sample. Fragmented MP4 starts each track at 0 whatever its first
    /// timestamp, so this cut is what puts the sound's first sample under the picture's first frame.
    private func rawSound(_ probe: ProbeData) -> GstPadProbeReturn {
        guard let rawSoundFeed, let buffer = probe.buffer, buffer.pointee.pts != gstcam_clock_time_none() else { return GST_PAD_PROBE_OK }
        let (firstFrame, flush, shift): (GstClockTime?, [HeldBuffer], Bool) = state.withLock { state in
            if state.soundStart == nil { state.soundStart = buffer.pointee.pts }
            // A pre-roll's sound waits for its video to reach the writer: the muxer needs both to write anything, and
            // seconds of sound pushed ahead of the first frame would only wait in it.
            guard let firstFrame = state.soundCut, preRoll == nil || state.firstTimestamp != nil else {
                state.heldSound.append(HeldBuffer(buffer))
                // From the cut once it is known; pre-rolling, from the oldest video kept; else from a second back.
                let pts = buffer.pointee.pts
                let keepFrom = state.soundCut ?? state.held.first.map { Self.start(of: $0.buffer) } ?? (pts > 1_000_000_000 ? pts - 1_000_000_000 : 0)
                while state.heldSound.count > 1, state.heldSound[1].buffer.pointee.pts <= keepFrom {
                    state.heldSound.removeFirst().release()
                }
                return (nil, [], false)
            }
            defer { state.heldSound = []; state.audioShifted = true }
            return (firstFrame, state.heldSound, !state.audioShifted)
        }
        guard let firstFrame else { return GST_PAD_PROBE_DROP }
        // The encoder's priming is played before the sound: starting the sound that much after the first frame puts
        // each sample where it was heard.
        let cut = firstFrame + Self.soundTime(samples: soundPriming, pad: rawSoundFeed)
        // The sound's time starts at the cut, as the video's starts at its first frame: set once, before any sound
        // has gone on (the segment is sent again, with the shift, ahead of the first buffer).
        if shift { gst_pad_set_offset(rawSoundFeed.pointer, -Int(cut)) }
        // The held sound goes first, from this streaming thread, so the order holds (each push passes this probe
        // again, already cut).
        for held in flush {
            if let kept = Self.cutSound(gstcam_buffer_make_writable(held.take()), at: cut, pad: rawSoundFeed) {
                gst_pad_push(rawSoundFeed.pointer, kept)
            }
        }
        guard Self.soundEnd(buffer, pad: rawSoundFeed) > cut else { return GST_PAD_PROBE_DROP }
        if buffer.pointee.pts < cut, Self.cutSound(gstcam_probe_info_writable_buffer(probe.info), at: cut, pad: rawSoundFeed, owned: false) == nil {
            return GST_PAD_PROBE_DROP
        }
        return GST_PAD_PROBE_OK
    }

    /// The samples' rate and bytes per sample frame (16-bit, as record-audio-*.branch converts them to).
    private static func soundFormat(_ pad: Pad) -> (rate: Int32, frameBytes: Int)? {
        guard let caps = gst_pad_get_current_caps(pad.pointer) else { return nil }
        defer { gst_caps_unref(caps) }
        guard let structure = gst_caps_get_structure(caps, 0) else { return nil }
        var rate: Int32 = 0, channels: Int32 = 0
        guard gst_structure_get_int(structure, "rate", &rate) != 0, gst_structure_get_int(structure, "channels", &channels) != 0,
              rate > 0, channels > 0 else { return nil }
        return (rate, 2 * Int(channels))
    }

    /// How long `samples` of the sound last.
    private static func soundTime(samples: Int, pad: Pad) -> GstClockTime {
        guard samples > 0, let format = soundFormat(pad) else { return 0 }
        return GstClockTime(samples) * 1_000_000_000 / GstClockTime(format.rate)
    }

    /// When the sound in `buffer` ends, from its size (a source's durations can be missing).
    private static func soundEnd(_ buffer: UnsafeMutablePointer<GstBuffer>, pad: Pad) -> GstClockTime {
        guard let format = soundFormat(pad) else { return buffer.pointee.pts &+ buffer.pointee.duration }
        let frames = Int(gst_buffer_get_size(buffer)) / format.frameBytes
        return buffer.pointee.pts + GstClockTime(frames) * 1_000_000_000 / GstClockTime(format.rate)
    }

    /// Drops the samples of `buffer` (writable) from before `cut`; nil (and the buffer given up, when `owned`) when
    /// none are left.
    private static func cutSound(_ buffer: UnsafeMutablePointer<GstBuffer>, at cut: GstClockTime, pad: Pad,
                                 owned: Bool = true) -> UnsafeMutablePointer<GstBuffer>? {
        let pts = buffer.pointee.pts
        guard let format = soundFormat(pad) else { return buffer }
        let frames = Int(gst_buffer_get_size(buffer)) / format.frameBytes
        // Rounded up, so the first sample kept is never before the cut (a time before it would be clipped away).
        let skip = pts >= cut ? 0 : Int(((cut - pts) * GstClockTime(format.rate) + 999_999_999) / 1_000_000_000)
        guard skip < frames else {
            if owned { gst_buffer_unref(buffer) }
            return nil
        }
        guard skip > 0 else { return buffer }
        gst_buffer_resize(buffer, skip * format.frameBytes, (frames - skip) * format.frameBytes)
        buffer.pointee.pts = max(cut, pts + GstClockTime(skip) * 1_000_000_000 / GstClockTime(format.rate))
        buffer.pointee.duration = GstClockTime(frames - skip) * 1_000_000_000 / GstClockTime(format.rate)
        return buffer
    }

    /// Every encoded sound buffer on its way to the muxer.
    private func sound(_ buffer: UnsafeMutablePointer<GstBuffer>) -> GstPadProbeReturn {
        let pts = buffer.pointee.pts
        let (pastEnd, backwards): (Bool, Bool) = state.withLock { state in
            let pastEnd = state.soundEnd.map { pts != gstcam_clock_time_none() && pts >= $0 } ?? false
            // A muxer given a timestamp older than the one before writes that frame out of order (mp4mux: the
            // same decoding time for several frames, "non monotonically increasing dts" in ffmpeg).
            let backwards = state.lastSound.map { pts <= $0 } ?? false
            if !backwards { state.lastSound = pts }
            return (pastEnd, backwards)
        }
        if pastEnd {
            endSoundNow()
            return GST_PAD_PROBE_DROP
        }
        guard pts != gstcam_clock_time_none(), !backwards else { return GST_PAD_PROBE_DROP }
        return GST_PAD_PROBE_OK
    }

    /// Drops kept frames from the front while the next keyframe still leaves `keeping` of video: the kept video
    /// always starts with a keyframe and covers at least `keeping` (up to one keyframe interval more).
    private static func trim(_ held: inout [HeldBuffer], keeping: GstClockTime) {
        guard let newest = held.last?.buffer.pointee.pts else { return }
        while let next = held.dropFirst().firstIndex(where: { !$0.isDelta }),
              newest >= held[next].buffer.pointee.pts, newest - held[next].buffer.pointee.pts >= keeping {
            for dropped in held[..<next] { dropped.release() }
            held.removeFirst(next)
        }
        // Before the first keyframe arrives nothing can start a file.
        if let first = held.first, first.isDelta, let keyframe = held.firstIndex(where: { !$0.isDelta }) {
            for dropped in held[..<keyframe] { dropped.release() }
            held.removeFirst(keyframe)
        }
    }

    /// Names the file of a pre-roll that has not begun: its writer is not in the pipeline yet, so its sink takes a new
    /// `location` (a file, or splitmuxsink's pattern); `path` is the first file.
    func rename(location newLocation: String, path: String) throws {
        guard preRoll != nil, !hasBegun else {
            throw CameraError.recordingFailed(path: self.path, detail: "the file can only be named before the pre-roll begins")
        }
        sink.set("location", newLocation)
        location.withLock { $0 = path }
    }

    /// Starts writing a pre-rolled recording: the writer joins and the kept video goes first, with the sound kept
    /// from the same instant on.
    func begin() throws {
        guard preRoll != nil, !hasBegun else { return }
        // Playing before it is linked: linked first, the encoder's next push sends its sticky events (caps, segment) to a
        // writer still in NULL, which answers FLUSHING — and the encoder's input queue then stops its thread for good
        // (seen on vivid under emulation: 3 starts in 8, "The first recorded frame did not happen within 10 s").
        guard bin.add(writerBin), writerBin.syncStateWithParent(), feed.link(to: writerInput) == .ok,
              audioFeed.map({ encoded in writerSound.map { encoded.link(to: $0) == .ok } ?? false }) ?? true else {
            throw CameraError.negotiationFailed(device: nil, detail: "the recording writer could not be linked (\(writerFile))")
        }
        state.withLock { state in
            state.begun = true
            state.framesIn = 0
            state.firstInput = nil
            // The file starts with the oldest video kept: so does its sound (the raw sound held since then).
            if audioFeed != nil, let oldest = state.held.first { state.soundCut = Self.start(of: oldest.buffer) }
        }
    }

    /// Where an encoded frame starts in time: its decoding time when that comes first.
    private static func start(of buffer: UnsafeMutablePointer<GstBuffer>) -> GstClockTime {
        let pts = buffer.pointee.pts, dts = buffer.pointee.dts
        return dts != gstcam_clock_time_none() ? min(dts, pts) : pts
    }

    private func written(_ buffer: UnsafeMutablePointer<GstBuffer>) {
        let pts = buffer.pointee.pts
        let none = gstcam_clock_time_none()
        let start = Self.start(of: buffer)
        let (offset, first): (Int?, Bool) = state.withLock { state in
            var offset: Int?
            let first = state.firstTimestamp == nil
            if first {
                state.firstTimestamp = start
                offset = -Int(start)
            }
            while let gap = state.pendingGaps.first, pts >= gap.from {
                state.pendingGaps.removeFirst()
                state.shift += gap.gap
                offset = -Int(state.firstTimestamp! + state.shift)
            }
            state.framesOut += 1
            state.lastTimestamp = pts &- state.shift
            if buffer.pointee.duration != none { state.lastDuration = buffer.pointee.duration }
            return (offset, first)
        }
        // Sticky events (the segment) are sent again with the new offset before this buffer.
        if let offset { gst_pad_set_offset(feed.pointer, offset) }
        if first { onStarted() }
    }

    // MARK: Control

    var progress: (frames: Int, dropped: Int, duration: Duration) {
        state.withLock { state in
            let duration = state.firstTimestamp.map { first in
                state.lastTimestamp >= first ? state.lastTimestamp - first + state.lastDuration : 0
            } ?? 0
            // Frames in the encoder or its queue are not dropped: count only what could no longer arrive.
            let inFlight = state.accepting ? 30 : 0
            return (state.framesOut, max(0, state.framesIn - state.framesOut - inFlight), .nanoseconds(Int64(duration)))
        }
    }

    /// Exact once the branch has ended.
    var finalFigures: (frames: Int, dropped: Int, duration: Duration) {
        state.withLock { state in
            let duration = state.firstTimestamp.map { first in
                state.lastTimestamp >= first ? state.lastTimestamp - first + state.lastDuration : 0
            } ?? 0
            return (state.framesOut, max(0, state.framesIn - state.framesOut), .nanoseconds(Int64(duration)))
        }
    }

    func setPaused(_ paused: Bool) {
        state.withLock { state in
            guard state.paused != paused else { return }
            state.paused = paused
            if paused { state.pausedAfter = state.lastInput }
        }
    }

    var failure: CameraError? { state.withLock { $0.failure } }

    /// Whether the writer has joined: at once, or with pre-roll at `begin()`.
    var hasBegun: Bool { state.withLock { $0.begun } }

    /// Sends EOS into the branch (no more frames are taken) and waits up to `timeout` for the writer to finish
    /// the file. Returns whether it did. A pre-roll that never began has no writer: it ends at once, with no file.
    func finish(timeout: Duration) async -> Bool {
        sendEndOfStream()
        guard hasBegun else { return true }
        do {
            try await ended.value(timeout: timeout, what: "The end of the recording")
            return true
        } catch {
            return false
        }
    }

    /// As `finish`, blocking: for the session's own teardown, which is synchronous.
    func finishBlocking(timeout: Duration) -> Bool {
        sendEndOfStream()
        guard hasBegun else { return true }
        return endedSignal.wait(timeout: .now() + .nanoseconds(Int(timeout.inSeconds * 1e9))) == .success
    }

    private func sendEndOfStream() {
        let send = state.withLock { state in
            defer { state.accepting = false }
            return state.accepting
        }
        // A failed branch's elements refuse events; its file already holds what could be written.
        if send, failure == nil {
            _ = gst_pad_send_event(branchInput.pointer, gst_event_new_eos())
            let end = state.withLock { state in state.lastInput.map { $0 + state.lastDuration } }
            if let end { endSound(at: end) } else { endSoundNow() }
        }
    }

    /// Ends the sound where the video ended: its buffers from `end` on are dropped and the first of them ends its
    /// source; a source that does not get there within 2 s (stalled) is ended anyway.
    private func endSound(at end: GstClockTime) {
        guard audioSource != nil else { return }
        state.withLock { $0.soundEnd = $0.soundEnd ?? end }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(2)) { [weak self] in self?.endSoundNow() }
    }

    private func endSoundNow() {
        guard let audioSource else { return }
        let send = state.withLock { state in
            defer { state.soundEnded = true }
            return !state.soundEnded
        }
        if send { _ = gst_element_send_event(audioSource.pointer, gst_event_new_eos()) }
    }

    /// The session's bus thread offers each message; returns whether it was the recording's.
    func handle(_ message: BusMessage) -> Bool {
        switch message {
        case .forwarded(.endOfStream(source: Self.sinkName)):
            ended.succeed(())
            endedSignal.signal()
            // A muxer that failed sends EOS after its error: that end is the failure's, already reported.
            if failure == nil { onEnded() }
            return true
        case .forwarded:
            return true
        case .error(let error) where error.debug?.contains("/GstBin:\(Self.binName)/GstBin:recording-audio-source/") == true:
            fail(.audioUnavailable(detail: error.message))
            return true
        case .error(let error) where error.debug?.contains("/GstBin:\(Self.binName)/") == true:
            fail(.recordingFailed(path: path, detail: Self.explain(error)))
            return true
        default:
            return false
        }
    }

    private func fail(_ error: CameraError) {
        let first: Bool = state.withLock { state in
            guard state.failure == nil else { return false }
            state.failure = error
            state.accepting = false
            return true
        }
        guard first else { return }
        ended.fail(error)
        endedSignal.signal()
        onFailed(error)
    }

    /// Unlinks the branch from the tee, brings it to NULL (closing the file) and takes it out of the pipeline.
    /// Call from a thread that is not one of the pipeline's streaming threads.
    func remove() {
        guard !removed.exchange(true, ordering: .relaxed) else { return }
        let held = state.withLock { state in
            state.accepting = false
            defer { state.heldSound = [] }
            return state.heldSound
        }
        for buffer in held { buffer.release() }
        if let soundLink { soundLink.branches.unlink(soundLink.branch) }
        branches.detach(branch)
    }

    /// GStreamer's words, or plainer ones for what a recording meets most: a full disk.
    static func explain(_ error: BusError) -> String {
        if error.domain == "gst-resource-error-quark", error.code == Int32(GST_RESOURCE_ERROR_NO_SPACE_LEFT.rawValue) {
            return "no space left on device (the disk holding it is full)"
        }
        return CameraError.sentence(error.message)
    }

    static func flowName(_ flow: GstFlowReturn) -> String {
        String(cString: gst_flow_get_name(flow))
    }
}

extension Element {
    /// Whether the element has a property of that name (setting an unknown one is a GLib critical).
    func hasProperty(_ name: String) -> Bool {
        let instance = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GTypeInstance.self)
        return g_object_class_find_property(UnsafeMutableRawPointer(instance.pointee.g_class).assumingMemoryBound(to: GObjectClass.self), name) != nil
    }
}

/// One reference to an encoded GstBuffer kept for pre-roll, given up by `release()` or `take()`.
///
/// `@unchecked Sendable`: GstBuffer reference counting is atomic, and a kept buffer is only read (flags,
/// timestamps) or handed on whole, never written, so moving the reference between threads is safe.
private struct HeldBuffer: @unchecked Sendable {
    let buffer: UnsafeMutablePointer<GstBuffer>

    init(_ buffer: UnsafeMutablePointer<GstBuffer>) { self.buffer = gst_buffer_ref(buffer) }

    /// Not a keyframe.
    var isDelta: Bool { buffer.pointee.mini_object.flags & GST_BUFFER_FLAG_DELTA_UNIT.rawValue != 0 }

    func release() { gst_buffer_unref(buffer) }

    /// The reference, for a call that takes it over (gst_pad_push).
    func take() -> UnsafeMutablePointer<GstBuffer> { buffer }
}
