import Foundation
import Testing

/// `--audio` and `--audio auto` on a machine with a sound server (a private PulseAudio with a null sink playing a
/// 1 kHz tone): the recording holds that tone, decoded by ffmpeg, in MP4 (AAC) and WebM (Opus). Without a server,
/// RecordAudioAutoTests shows the other side.
@Suite(.serialized) struct RecordSoundServerTests {
    @Test(arguments: [("--audio", "mp4", "aac"), ("auto", "mp4", "aac"), ("--audio", "webm", "opus")])
    func theSoundServersInputIsRecorded(mode: String, container: String, codec: String) throws {
        let server = try SoundServerFixture()
        defer { server.stop() }
        let path = server.folder + "/sound.\(container)"
        let audio = mode == "auto" ? ["--audio", "auto"] : ["--audio"]
        let result = try gstcam(["record", "--pipeline", "test-pattern", "--width", "160", "--height", "120",
                                 "--duration", "2", "-o", path] + audio + (container == "webm" ? ["--codec", "vp8"] : []),
                                environment: server.environment)
        #expect(result.status == 0, "\(result.error)")
        #expect(!result.error.contains("warning"), "\(result.error)")
        let streams = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", path])
        #expect(streams.output.split(separator: "\n").contains(Substring(codec)), "\(streams.output)")
        let tone = try decodedTone(path)
        #expect(tone.seconds > 1.8, "\(tone.seconds) s of sound")
        #expect(tone.rms > 3000, "the sound is silent (RMS \(tone.rms))")
        #expect(abs(tone.frequency - SoundServerFixture.toneFrequency) < 30, "the sound is at \(tone.frequency) Hz")
    }
}
