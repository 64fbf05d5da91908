/// The samples of silence an AAC encoder puts in front of the sound it is given (its "priming"), by element factory.
///
/// Players are not told of it: mp4mux writes no edit list for it (GstAudioEncoder reports no lookahead for either
/// encoder), so every decoder plays the priming and the whole sound comes that much after its picture — 33 ms with
/// voaacenc at 48 kHz, one frame at 30 fps. The recording cuts that much more of the sound's start instead
/// (`RecordBranch`), so what a player decodes at a time is what was heard at that time.
///
/// Measured on this project's machines: a WAV file with a click every 0.5 s at known samples, through each encoder
/// into fragmented `mp4mux`, decoded by ffmpeg: voaacenc's clicks come 1600 samples late at
/// 16, 32, 44.1 and 48 kHz, mono or stereo, 64 or 128 kbit/s, with input buffers of 441 to 4800 samples; avenc_aac's
/// 1024 samples (FFmpeg's `initial_padding`). Opus needs nothing: its pre-skip is in the stream's header and decoders
/// drop it. An encoder not listed is taken to have none (its delay would show in RecordAVSyncTests).
enum SoundEncoderPriming {
    static func samples(factory: String?) -> Int {
        switch factory {
        case "voaacenc": 1600
        case "avenc_aac": 1024
        default: 0
        }
    }
}
