import Foundation
import Testing
@testable import GstCamera

/// Recording from a running session: the files are read by FFmpeg's ffprobe and decoded whole by ffmpeg.
@Suite(.serialized) struct RecordingTests {
    @Test func aRecordingIsAPlayableH264MP4WhileThePreviewAndPhotosGoOn() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        // Started a while after the camera: the file still starts at 0.
        try await Task.sleep(for: .seconds(1))
        let recording = try await session.startRecording(RecordingSettings(path: folder + "/clip.mp4"))
        #expect(recording.codec == .h264)
        #expect(!recording.encoderReason.isEmpty)
        try await Task.sleep(for: .milliseconds(800))
        let photo = try await session.capturePhoto(to: folder + "/during.jpg")
        try await Task.sleep(for: .milliseconds(700))
        let video = try await recording.stop()
        #expect(photo.width == 320)
        #expect(video.path == folder + "/clip.mp4")
        // The preview never stopped.
        let before = session.frameCount
        for await frame in session.frames() where frame.number > before + 3 { break }
        #expect(session.state == .running)

        let probed = try ProbedVideo.read(video.path)
        #expect(probed.codec == "h264")
        #expect(probed.width == 320 && probed.height == 240)
        #expect(probed.frames == video.frames, "ffprobe counted \(probed.frames), the recording \(video.frames)")
        #expect(video.frames >= 30, "\(video.frames) frames in 1.5 s at 30 fps")
        #expect(try #require(probed.start) < 0.01, "the file starts at \(probed.start ?? -1) s")
        let duration = try #require(probed.duration)
        #expect(abs(duration - video.duration.inSeconds) <= 1.0 / 30 + 0.001, "file \(duration) s, recording \(video.duration)")
        #expect(abs(duration - Double(video.frames) / 30) <= 1.0 / 30 + 0.001, "\(duration) s for \(video.frames) frames")
        let decoded = try decodeEveryFrame(video.path)
        #expect(decoded.status == 0 && decoded.errors.isEmpty, "\(decoded.errors)")
        #expect(video.bytes == (try FileManager.default.attributesOfItem(atPath: video.path)[.size] as? Int64))
    }

    @Test func vp8IsRecordedIntoWebMWhenAsked() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        try await Task.sleep(for: .seconds(1))
        let recording = try await session.startRecording(RecordingSettings(path: folder + "/clip", codec: .vp8))
        #expect(recording.encoder == "vp8enc")
        try await Task.sleep(for: .seconds(1))
        let video = try await recording.stop()
        #expect(video.path == folder + "/clip.webm")
        let probed = try ProbedVideo.read(video.path)
        #expect(probed.codec == "vp8" && probed.width == 320 && probed.height == 240)
        #expect(probed.frames == video.frames && video.frames >= 20)
        #expect(try #require(probed.start) < 0.01, "the file starts at \(probed.start ?? -1) s")
        let decoded = try decodeEveryFrame(video.path)
        #expect(decoded.status == 0 && decoded.errors.isEmpty, "\(decoded.errors)")
    }

    /// The frames in the file are the camera's, in order: the identity colour of /dev/video0 and its sequence
    /// stamps counting up.
    @Test func theFileShowsTheCameraFramesInOrder() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let device = VirtualCameraFixture.devices[0]
        let session = try await startCamera(device.path, width: 640, height: 480)
        defer { session.stop() }
        let recording = try await session.startRecording(RecordingSettings(path: folder + "/camera.mp4"))
        try await Task.sleep(for: .seconds(1))
        let video = try await recording.stop()
        let frames = try decodedFrames(video.path, width: 640, height: 480)
        #expect(frames.count == video.frames)
        let (r, g, b) = identityColour(try #require(frames.first), width: 640, height: 480)
        #expect(abs(r - device.identity.red) < 24 && abs(g - device.identity.green) < 24 && abs(b - device.identity.blue) < 24,
                "band (\(r), \(g), \(b))")
        let stamps = frames.map { sequenceStamp($0, width: 640, height: 480) }
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "\(stamps)")
    }

    @Test func anExistingFileIsNeverReplacedWithoutOverwrite() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/taken.mp4"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        await #expect(throws: CameraError.outputExists(path: path)) {
            _ = try await session.startRecording(RecordingSettings(path: path))
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep")
        // And the session can still record.
        let recording = try await session.startRecording(RecordingSettings(path: folder + "/other.mp4"))
        await #expect(throws: CameraError.alreadyRecording(path: folder + "/other.mp4")) {
            _ = try await session.startRecording(RecordingSettings(path: folder + "/third.mp4"))
        }
        _ = try await recording.stop()
    }
}

/// A recording that cannot go on (a full disk) ends by itself with a clear error, leaves a file that plays up
/// to the failure, and the camera keeps running: on the virtual camera, whose sequence stamps count every frame
/// interval (a frame that finds no buffer leaves a gap, as vivid and uvcvideo do), the preview loses no frame
/// while the disk fills and the writer fails.
@Suite(.serialized) struct RecordingFailureTests {
    @Test func aFullDiskEndsTheRecordingWithAPlayableFileAndThePreviewGoesOn() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let disk = folder + "/small"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        // A 256 KiB tmpfs (tests run as root, as CI does).
        let mounted = try runProcess("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", disk])
        try #require(mounted.status == 0, "mount: \(mounted.error)")
        defer { _ = try? runProcess("/usr/bin/umount", ["-l", disk]) }
        // The virtual camera's mostly still scene compresses to about 5 KB a second: 12 KiB left free is about 2 s.
        let free = try #require(try FileManager.default.attributesOfFileSystem(forPath: disk)[.systemFreeSize] as? Int)
        try #require(FileManager.default.createFile(atPath: disk + "/filler", contents: Data(count: free - 12 * 1024)))
        let session = try await startCamera(VirtualCameraFixture.devices[0].path, width: 640, height: 480)
        defer { session.stop() }
        let preview = Task { () -> [(number: Int, stamp: UInt32)] in
            var seen: [(number: Int, stamp: UInt32)] = []
            for await frame in session.frames() { seen.append((frame.number, sequenceStamp(frame))) }
            return seen
        }
        let recording = try await session.startRecording(RecordingSettings(path: disk + "/full.mp4", bitrate: 2000))
        let result = await recording.finished()
        let failedAt = session.frameCount
        for await number in session.frameNumbers() where number > failedAt + 30 { break }
        preview.cancel()
        let seen = await preview.value
        guard case .failure(let error) = result else {
            Issue.record("the recording did not fail: \(result)")
            return
        }
        #expect("\(error)".contains("Recording to \(disk)/full.mp4 stopped"), "\(error)")
        #expect("\(error)".contains("no space left on device (the disk holding it is full)"), "\(error)")
        #expect(session.state == .running)
        // Each preview frame's number (the session's count) and the camera's sequence stamp advance together
        // unless the camera lost frames for want of buffers. Appsink may skip a frame for a slow reader, which
        // moves both; a writer holding the camera's buffers would move only the stamp.
        try #require(seen.count > 40, "\(seen.count) preview frames seen from the recording's start to 1 s after its failure")
        let lost = zip(seen, seen.dropFirst()).map { Int($1.stamp) - Int($0.stamp) - ($1.number - $0.number) }
        #expect(lost.allSatisfy { $0 >= 0 }, "stamps went back: \(seen.map(\.stamp))")
        #expect(lost.reduce(0, +) <= 2, "the camera lost \(lost.reduce(0, +)) frames while the disk filled; gaps \(lost.filter { $0 > 0 })")
        // Photos still work (into a folder with room).
        _ = try await session.capturePhoto(to: folder + "/after.jpg")
        let probed = try ProbedVideo.read(disk + "/full.mp4")
        #expect(probed.codec == "h264" && probed.frames >= 15, "\(probed.frames) frames readable")
        let figures = try #require(recording.lastFigures)
        #expect(probed.frames <= figures.frames)
        // The session can record again once there is room.
        let next = try await session.startRecording(RecordingSettings(path: folder + "/next.mp4", duration: .seconds(1)))
        guard case .success(let video) = await next.finished() else { Issue.record("the second recording failed"); return }
        #expect(try ProbedVideo.read(video.path).frames == video.frames)
    }
}

/// `--segment`: consecutive files, each starting with a picture, and no frame lost between them (the virtual
/// camera's sequence stamps run on from one file into the next).
@Suite(.serialized) struct RecordingSegmentTests {
    @Test func segmentsFollowEachOtherWithoutALostFrame() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startCamera(VirtualCameraFixture.devices[0].path, width: 640, height: 480)
        defer { session.stop() }
        let recording = try await session.startRecording(RecordingSettings(
            path: folder + "/part.mp4", segmentDuration: .seconds(1), duration: .milliseconds(2500)))
        guard case .success(let video) = await recording.finished() else { Issue.record("the recording failed"); return }
        #expect(video.files == (1...3).map { folder + "/part_0000\($0).mp4" })
        var stamps: [[UInt32]] = []
        for file in video.files {
            let probed = try ProbedVideo.read(file)
            #expect(probed.codec == "h264" && probed.width == 640)
            let decoded = try decodeEveryFrame(file)
            #expect(decoded.status == 0 && decoded.errors.isEmpty, "\(file): \(decoded.errors)")
            stamps.append(try decodedFrames(file, width: 640, height: 480).map { sequenceStamp($0, width: 640, height: 480) })
        }
        #expect(stamps.map(\.count).reduce(0, +) == video.frames)
        let all = stamps.flatMap { $0 }
        #expect(zip(all, all.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(stamps)")
        // Cut at about the segment length (at a keyframe: one a second).
        #expect(stamps[0].count >= 25 && stamps[0].count <= 35, "\(stamps.map(\.count))")
    }
}

/// A recording goes on through a camera switch and a pause.
@Suite(.serialized) struct RecordingContinuityTests {
    /// The switch replaces only the source: the file goes on, first showing /dev/video0's identity, then /dev/video2's.
    @Test func aCameraSwitchContinuesIntoTheSameFile() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = VirtualCameraFixture.devices[0], second = VirtualCameraFixture.devices[1]
        let session = try await startCamera(first.path, width: 640, height: 480)
        defer { session.stop() }
        let recording = try await session.startRecording(RecordingSettings(path: folder + "/switch.mp4"))
        try await Task.sleep(for: .milliseconds(700))
        try await session.switchCamera(to: second.path)
        try await Task.sleep(for: .milliseconds(700))
        let video = try await recording.stop()
        let decoded = try decodeEveryFrame(video.path)
        #expect(decoded.status == 0 && decoded.errors.isEmpty, "\(decoded.errors)")
        let frames = try decodedFrames(video.path, width: 640, height: 480)
        #expect(frames.count == video.frames)
        func near(_ colour: (Int, Int, Int), _ device: VirtualTestDevice) -> Bool {
            abs(colour.0 - device.identity.red) < 24 && abs(colour.1 - device.identity.green) < 24 && abs(colour.2 - device.identity.blue) < 24
        }
        #expect(near(identityColour(try #require(frames.first), width: 640, height: 480), first))
        #expect(near(identityColour(try #require(frames.last), width: 640, height: 480), second))
    }

    /// A pause leaves no gap in the file: its time is the time recorded.
    @Test func aPausedRecordingHasNoGap() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        let recording = try await session.startRecording(RecordingSettings(path: folder + "/paused.mp4"))
        try await Task.sleep(for: .milliseconds(800))
        recording.pause()
        try await Task.sleep(for: .seconds(1))
        #expect(recording.progress.paused)
        recording.resume()
        try await Task.sleep(for: .milliseconds(800))
        let video = try await recording.stop()
        let probed = try ProbedVideo.read(video.path)
        #expect(probed.frames == video.frames)
        let duration = try #require(probed.duration)
        // 1.6 s recorded (a frame either way at each edge of the pause), not 2.6 s.
        #expect(abs(duration - Double(video.frames) / 30) <= 2.0 / 30, "\(duration) s for \(video.frames) frames")
        #expect(duration < 2.0, "\(duration) s: the pause left a gap")
    }
}

/// `--pre`: the file starts before the moment recording was asked for, at a keyframe, with no frame missing.
@Suite(.serialized) struct RecordingPreRollTests {
    @Test func aPreRolledRecordingStartsAtLeastThePreRollEarlier() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startCamera(VirtualCameraFixture.devices[0].path, width: 640, height: 480)
        defer { session.stop() }
        let recording = try await session.startRecording(RecordingSettings(path: folder + "/pre.mp4", preRoll: .seconds(1)))
        try await Task.sleep(for: .milliseconds(2500))
        #expect(!FileManager.default.fileExists(atPath: folder + "/pre.mp4"), "no file before begin()")
        var asked: UInt32?   // the camera's own count (its stamp): the session's frame numbers skip frames it lost
        for await frame in session.frames() { asked = sequenceStamp(frame); break }
        try await recording.begin()
        try await Task.sleep(for: .milliseconds(500))
        let video = try await recording.stop()
        let decoded = try decodeEveryFrame(video.path)
        #expect(decoded.status == 0 && decoded.errors.isEmpty, "\(decoded.errors)")
        let stamps = try decodedFrames(video.path, width: 640, height: 480).map { sequenceStamp($0, width: 640, height: 480) }
        #expect(stamps.count == video.frames)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(stamps)")
        // At least 1 s (30 frames) before the frame current at begin(), at most a keyframe interval more.
        let before = Int(try #require(asked)) - Int(try #require(stamps.first))
        #expect(before >= 28 && before <= 65, "the file starts \(before) frames before begin(): \(stamps.prefix(3))…")
    }
}

/// `--audio`: sound in the same file, on the same clock as the video.
@Suite(.serialized) struct RecordingAudioTests {
    /// What ffprobe says of one stream of `path`: codec, start and duration.
    private func stream(_ path: String, _ kind: String) throws -> (codec: String, start: Double, duration: Double?) {
        let result = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-select_streams", kind == "audio" ? "a:0" : "v:0",
                                    "-show_entries", "stream=codec_name,start_time,duration", "-of", "csv=p=0", path])
        let fields = result.output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
        return (fields.first ?? "", Double(fields.dropFirst().first ?? "") ?? -1, Double(fields.dropFirst(2).first ?? ""))
    }

    @Test func theTestToneIsRecordedAsAACInMP4InStepWithTheVideo() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        let recording = try await session.startRecording(RecordingSettings(
            path: folder + "/sound.mp4", duration: .seconds(2), audio: .testTone))
        guard case .success(let video) = await recording.finished() else { Issue.record("the recording failed"); return }
        let audio = try stream(video.path, "audio"), picture = try stream(video.path, "video")
        #expect(audio.codec == "aac" && picture.codec == "h264")
        // Both start together (one clock), and the sound lasts as long as the picture.
        #expect(abs(audio.start - picture.start) < 0.05, "audio starts at \(audio.start) s, video at \(picture.start) s")
        #expect(abs((audio.duration ?? 0) - 2) < 0.1, "\(audio.duration ?? -1) s of sound")
        // Every sound frame in order: ffmpeg decodes the whole file without a word (a sound frame written out of
        // order reads "non monotonically increasing dts … stream 1").
        let decoded = try decodeEveryFrame(video.path)
        #expect(decoded.status == 0, "\(decoded.errors)")
        #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    }

    /// WebM keeps each track's own start (fragmented MP4 starts every track at 0), so it shows whether the sound was cut
    /// and shifted to the first frame: the Opus track must start within one frame interval of the picture (its first
    /// packet's time less Opus's 6.5 ms pre-skip, which decoders drop), and the file decodes without a word.
    @Test func theTestToneStartsWithThePictureInWebM() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        let recording = try await session.startRecording(RecordingSettings(
            path: folder + "/sound.webm", codec: .vp8, duration: .seconds(2), audio: .testTone))
        guard case .success(let video) = await recording.finished() else { Issue.record("the recording failed"); return }
        let audio = try stream(video.path, "audio"), picture = try stream(video.path, "video")
        #expect(audio.codec == "opus" && picture.codec == "vp8")
        #expect(abs(audio.start - picture.start) < 1.0 / 30, "audio starts at \(audio.start) s, video at \(picture.start) s")
        let decoded = try decodeEveryFrame(video.path)
        #expect(decoded.status == 0 && decoded.errors.isEmpty, "\(decoded.errors)")
    }

    @Test func withNoSoundInputTheErrorSaysSo() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // This machine has no sound card or sound server (as CI): --audio must say so, not record silently.
        let result = try gstcam(["record", "--pipeline", "test-pattern", "--width", "160", "--height", "120",
                                 "--duration", "1", "--audio", "-o", folder + "/nosound.mp4"])
        #expect(result.status == 1)
        #expect(result.error.contains("No sound input could be opened for the recording"), "\(result.error)")
    }
}
