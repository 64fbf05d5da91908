import Foundation
import Testing
@testable import GstCamera

/// A/V sync, measured in the decoded file: pipelines/av-test.pipeline draws every frame from the same ticking
/// sound it gives the recording (its `sound` tee), so a tick is heard and seen at the same instant. Each tick's
/// onset is found in the decoded sound (to the sample) and in the decoded pictures (the frame where the flat line
/// first bends, and the column where it does: wavescope spreads a frame's samples across its width), and the two
/// times must agree.
///
/// The bound, 5 ms: the sound is located to the sample (0.02 ms) and the picture to a column (0.1 ms at 320
/// pixels for 33 ms), and both tracks start at the same instant when the recording is right (measured: 0.02 ms).
/// Each fault the recording could have is larger: a frame too early or late is 33 ms, an uncompensated AAC priming
/// 21 ms, one sound buffer 21–33 ms. 5 ms is also far below what viewers notice (ITU-R BT.1359: sound 45 ms early
/// or 125 ms late).
@Suite struct RecordAVSyncTests {
    static let bound = 0.005
    static let width = 320, height = 240

    @Test func mp4WithAudioAutoHasEveryTickHeardWhereItIsSeen() throws {
        let offsets = try recordAndMeasure(file: "av.mp4", options: ["--audio", "auto"])
        print("A/V offset, MP4 (AAC): \(Self.milliseconds(offsets))")
    }

    @Test func webmWithAudioHasEveryTickHeardWhereItIsSeen() throws {
        let offsets = try recordAndMeasure(file: "av.webm", options: ["--codec", "vp8", "--audio"])
        print("A/V offset, WebM (Opus): \(Self.milliseconds(offsets))")
    }

    /// Pre-roll with sound: the file starts with the video kept from before SIGUSR2 and with the sound held from
    /// that same instant, so it begins up to 2 s before the signal with every tick, early ones too, in step.
    @Test func preRolledMP4WithSoundHasEveryTickHeardWhereItIsSeen() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/pre.mp4"
        try BackgroundGstcam.recordPreRolled(["--pipeline", "av-test", "--width", "\(Self.width)", "--height", "\(Self.height)",
                                              "--pre", "1.5", "--duration", "2", "--audio"], path: path, armedFor: 3, within: 15)
        let probed = try ProbedVideo.read(path)
        // 2 s after the signal, and 1.5 s to 2.5 s (back to a keyframe) before it, at 30 fps.
        #expect(probed.frames >= 104 && probed.frames <= 137, "\(probed.frames) frames")
        let seconds = Double(probed.frames) / 30
        let offsets = try measure(path, seconds: seconds)
        // A tick from before the signal was heard (and, by `measure`, seen in step).
        let heard = try Self.tickOnsetsHeard(path)
        #expect(heard.contains { (0.1..<(seconds - 2)).contains($0) }, "ticks heard at \(heard) in \(seconds) s")
        print("A/V offset, MP4 (AAC) with pre-roll: \(Self.milliseconds(offsets))")
    }

    /// Records 3 s of av-test and returns, for each tick, when it is seen minus when it is heard (seconds).
    /// In MP4 the AAC encoder's priming (voaacenc: 1600 samples, 33 ms at 48 kHz) is cut from the sound's start
    /// (`SoundEncoderPriming`); without that cut every tick is heard one frame interval late (−33.35 ms).
    private func recordAndMeasure(file: String, options: [String]) throws -> [Double] {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + file
        let result = try gstcam(["record", "--pipeline", "av-test", "--width", "\(Self.width)", "--height", "\(Self.height)",
                                 "--duration", "3"] + options + ["-o", path])
        #expect(result.status == 0, "\(result.error)")
        // The pipeline's own sound is the input: `--audio auto` has nothing to warn about.
        #expect(!result.error.contains("warning"), "\(result.error)")
        return try measure(path, seconds: 3)
    }

    /// For each tick of a recording `seconds` long: when it is seen minus when it is heard (seconds). Every whole tick
    /// must be heard and seen, within `bound` of each other.
    private func measure(_ path: String, seconds: Double) throws -> [Double] {
        let heard = try Self.tickOnsetsHeard(path)
        let seen = try Self.tickOnsetsSeen(path)
        // A tick the recording's first or last 0.1 s cuts into may be heard and not seen or the other way round; the
        // margins differ for the two (0.1 s, 0.2 s), so a tick near one never counts on one side only.
        let heardWhole = heard.filter { (0.1...(seconds - 0.1)).contains($0) }
        // Ticks come every second from the pipeline's start: 3 s of recording holds 2 or 3 whole ones.
        #expect(heardWhole.count >= Int(seconds) - 1, "ticks heard at \(heard)")
        for time in seen where (0.2...(seconds - 0.2)).contains(time) {
            #expect(heard.contains { abs($0 - time) < 0.5 }, "a tick is seen at \(time) s and not heard (heard at \(heard))")
        }
        // Each tick heard against the one seen nearest to it (ticks are a second apart).
        var offsets: [Double] = []
        for time in heardWhole {
            guard let nearest = seen.min(by: { abs($0 - time) < abs($1 - time) }), abs(nearest - time) < 0.5 else {
                Issue.record("a tick is heard at \(time) s and not seen (seen at \(seen))")
                continue
            }
            offsets.append(nearest - time)
        }
        for offset in offsets {
            #expect(abs(offset) <= Self.bound, "a tick is seen \(Self.milliseconds([offset])) after it is heard (seen \(seen), heard \(heard))")
        }
        return offsets
    }

    /// The decoded sound (mono, 48 kHz): each sample that is loud after at least 0.1 s of quiet starts a tick.
    static func tickOnsetsHeard(_ path: String) throws -> [Double] {
        let samples = try decodedSound(path)
        var onsets: [Double] = []
        var quiet = 4800
        for (index, sample) in samples.enumerated() {
            if abs(Int(sample)) > 2000 {
                if quiet >= 4800 { onsets.append(Double(index) / 48000) }
                quiet = 0
            } else {
                quiet += 1
            }
        }
        return onsets
    }

    /// The decoded pictures (grey): silence is a flat line across the middle; the first frame after a flat one
    /// where the line leaves the middle shows a tick, which starts at the first column that leaves it (wavescope
    /// draws a frame's samples from left to right over one frame interval).
    static func tickOnsetsSeen(_ path: String) throws -> [Double] {
        let times = try frameTimes(path)
        let frames = try decodedGreyFrames(path)
        #expect(frames.count == times.count, "\(frames.count) frames decoded, \(times.count) timestamps")
        guard times.count > 1 else { return [] }
        let interval = (times.last! - times.first!) / Double(times.count - 1)
        var onsets: [Double] = []
        var wasFlat = true
        for (frame, time) in zip(frames, times) {
            let column = firstColumnOffTheLine(frame)
            if let column, wasFlat { onsets.append(time + Double(column) / Double(width) * interval) }
            wasFlat = column == nil
        }
        return onsets
    }

    /// The first column with a bright pixel more than 4 rows away from the middle row.
    static func firstColumnOffTheLine(_ grey: [UInt8]) -> Int? {
        let middle = height / 2
        return (0..<width).first { x in
            (0..<height).contains { y in abs(y - middle) > 4 && grey[y * width + x] > 100 }
        }
    }

    static func decodedGreyFrames(_ path: String) throws -> [[UInt8]] {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let raw = folder + "/frames.grey"
        let result = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-an", "-fps_mode", "passthrough",
                                                        "-f", "rawvideo", "-pix_fmt", "gray", raw])
        guard result.status == 0 else { throw DecodeError(message: "ffmpeg could not decode the pictures of \(path): \(result.error)") }
        let bytes = [UInt8](FileManager.default.contents(atPath: raw) ?? Data())
        let size = width * height
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<$0 + size]) }
    }

    /// Each decoded frame's presentation time in seconds, in decoding order as ffmpeg gives them.
    static func frameTimes(_ path: String) throws -> [Double] {
        let result = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=best_effort_timestamp_time",
                                                         "-of", "csv=p=0", path])
        guard result.status == 0 else { throw DecodeError(message: "ffprobe could not read the frames of \(path): \(result.error)") }
        return result.output.split(whereSeparator: \.isNewline).compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
    }

    static func milliseconds(_ offsets: [Double]) -> String {
        offsets.map { String(format: "%+.2f ms", $0 * 1000) }.joined(separator: ", ")
    }
}
