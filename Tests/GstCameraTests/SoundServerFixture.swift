import Foundation

/// A private PulseAudio server, as a desktop user's session runs one, with no sound card: a null sink whose
/// monitor is the default source, and PulseAudio's own sine generator (module-sine, 1 kHz) playing into it.
/// autoaudiosrc (pulsesrc) in a gstcam started with `environment` hears the tone; nothing else on the machine
/// sees this server (its socket is private). The server daemonizes and is stopped with `pactl exit`: a child
/// Process left running would wedge Foundation's process reaper (it waits on the wrong child).
struct SoundServerFixture {
    static let toneFrequency = 1000.0
    let folder: String
    let environment: [String: String]

    init() throws {
        folder = try makeTemporaryFolder()
        let socket = folder + "/native"
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = "unix:" + socket
        environment["HOME"] = folder   // its cookie and state, not the tester's
        environment["XDG_RUNTIME_DIR"] = folder
        self.environment = environment
        let started = try runProcess("/bin/sh", ["-c", "exec /usr/bin/pulseaudio -n --daemonize=yes --exit-idle-time=-1 "
            + "--disable-shm=yes -L 'module-native-protocol-unix socket=\(socket) auth-anonymous=1' "
            + "-L 'module-null-sink sink_name=gstcam_test_sink' "
            + "-L 'module-sine sink=gstcam_test_sink frequency=\(Int(Self.toneFrequency))' >/dev/null 2>&1"],
            environment: environment)
        guard started.status == 0 else {
            throw SoundServerError(message: "pulseaudio did not start (status \(started.status))")
        }
        do {
            try Self.wait("the tone to play into the null sink on \(socket)") {
                let inputs = try runProcess("/usr/bin/pactl", ["list", "short", "sink-inputs"], environment: environment)
                return inputs.status == 0 && !inputs.output.isEmpty
            }
        } catch {
            stop()
            throw error
        }
    }

    func stop() {
        _ = try? runProcess("/usr/bin/pactl", ["exit"], environment: environment)
        try? FileManager.default.removeItem(atPath: folder)
    }

    private static func wait(_ what: String, until ready: () throws -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try !ready() {
            guard ContinuousClock.now < deadline else { throw SoundServerError(message: "timed out waiting for \(what)") }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }
}

struct SoundServerError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The sound track of `path` as ffmpeg decodes it: mono 16-bit samples at 48 kHz.
func decodedSound(_ path: String) throws -> [Int16] {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let raw = folder + "/sound.s16"
    let result = try runProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-vn", "-f", "s16le", "-ac", "1",
                                                    "-ar", "48000", raw])
    guard result.status == 0 else { throw DecodeError(message: "ffmpeg could not decode the sound of \(path): \(result.error)") }
    let bytes = FileManager.default.contents(atPath: raw) ?? Data()
    return bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
}

/// The sound track of `path` as ffmpeg decodes it (mono, 48 kHz): its loudness (RMS of 16-bit samples) and its
/// frequency (zero crossings), after the first 0.1 s.
func decodedTone(_ path: String) throws -> (rms: Double, frequency: Double, seconds: Double) {
    let samples = try decodedSound(path).dropFirst(4800)
    guard samples.count > 4800 else { return (0, 0, Double(samples.count) / 48000) }
    let rms = (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    let crossings = zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
    let seconds = Double(samples.count) / 48000
    return (rms, Double(crossings) / 2 / seconds, seconds + 0.1)
}
