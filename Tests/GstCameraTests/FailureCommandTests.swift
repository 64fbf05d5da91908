import Foundation
import Testing
import GstCamera

/// What `gstcam` prints and how it exits when it is signalled early or its camera fails (issue 16 items 1 and 3,
/// issue 10 item 3), on /dev/video20 (the session-failure tests' own device, see scripts/test).
@Suite(.serialized) struct FailureCommandTests {
    static let device = SessionFailureTests.device
    static let inject = SessionFailureTests.inject
    static func clearFaults() { SessionFailureTests.clearFaults() }

    /// Waits for a running gstcam to end; nil when it still runs after `timeout` seconds (it is then killed).
    static func ending(of running: BackgroundGstcam, within timeout: Double) -> (status: Int32, bySignal: Bool, seconds: Double)? {
        let start = Date()
        let ended = running.wait(timeout) { !running.process.isRunning }
        guard ended else { killAndWait(running.process); return nil }
        running.process.waitUntilExit()
        return (running.process.terminationStatus, running.process.terminationReason == .uncaughtSignal,
                Date().timeIntervalSince(start))
    }

    /// Whether the process has SIGINT and SIGTERM blocked, which gstcam's first statement does (Interrupt.install):
    /// from then on they wait for its signal sources.
    static func catchesSignals(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
              let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
        let wanted: UInt64 = 1 << (UInt64(SIGINT) - 1) | 1 << (UInt64(SIGTERM) - 1)
        return mask & wanted == wanted
    }

    /// The lines gstcam wrote to stderr that are not frame figures.
    /// stderr's lines but the chosen mode's ("Mode: …", which every camera command prints first; ModeCLITests
    /// check it).
    static func messages(_ running: BackgroundGstcam) -> [String] {
        withoutModeLine(running.errors).split(separator: "\n").map(String.init)
    }

    static func withoutModeLine(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("Mode: ") }
            .joined(separator: "\n")
    }

    // MARK: Signals

    enum Early: String, CaseIterable, CustomStringConvertible {
        case burst, photo, preview
        var description: String { rawValue }
        func arguments(folder: String) -> [String] {
            switch self {
            case .burst: return ["capture", "--device", FailureCommandTests.device, "--count", "0", "--dir", folder]
            case .photo: return ["capture", "--device", FailureCommandTests.device, "-o", folder + "/one.jpg"]
            case .preview: return ["preview", "--device", FailureCommandTests.device, "--sink", "none"]
            }
        }
    }

    @Test(arguments: Early.allCases, [0, 20, 50, 100, 150])
    func aSignalDuringStartEndsGstcamWith130(_ command: Early, afterMilliseconds delay: Int) throws {
        Self.clearFaults()
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let running = try BackgroundGstcam(command.arguments(folder: folder))
        defer { running.remove() }
        // Counted from gstcam's first statement: a signal before main() runs ends the process the default way (it
        // holds nothing yet), and on a loaded machine the dynamic loader alone can take longer than 150 ms.
        #expect(running.wait(5) { Self.catchesSignals(running.process.processIdentifier) }, "gstcam never reached main()")
        Thread.sleep(forTimeInterval: Double(delay) / 1000)
        kill(running.process.processIdentifier, delay % 40 == 0 ? SIGTERM : SIGINT)
        let ending = try #require(Self.ending(of: running, within: 2), "gstcam still ran 2 s after the signal: \(running.errors)")
        #expect(!ending.bySignal && ending.status == 130, "status \(ending.status), stderr: \(running.errors)")
        #expect(!running.errors.contains("did not happen within"), "\(running.errors)")
        #expect(CaptureFailureTests.contents(folder).hidden.isEmpty, "a partial file was left")
        try CaptureFailureTests.expectWholePhotos(in: folder)
    }

    @Test func aSecondSignalEndsGstcamWhateverTheFirstIsDoing() throws {
        // A pipeline whose streaming thread sleeps 5 s per frame, as a driver stuck in an ioctl would: stopping it
        // (what the first signal does) takes seconds.
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/stuck.pipeline"
        try """
        videotestsrc name=source is-live=true ! video/x-raw,width=${width},height=${height},framerate=${framerate}
          ! identity sleep-time=5000000 ! videocrop name=zoom ! tee name=split
        split. ! queue leaky=downstream max-size-buffers=2 ! videoconvert ! video/x-raw,format=RGB ! appsink name=preview
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let running = try BackgroundGstcam(["preview", "--pipeline", file, "--sink", "none", "--width", "160", "--height", "120"])
        defer { running.remove() }
        Thread.sleep(forTimeInterval: 0.5)
        kill(running.process.processIdentifier, SIGTERM)
        Thread.sleep(forTimeInterval: 0.2)
        let second = Date()
        kill(running.process.processIdentifier, SIGINT)
        let ending = Self.ending(of: running, within: 5)
        let took = Date().timeIntervalSince(second)
        #expect(ending?.status == 130 && ending?.bySignal == false, "\(String(describing: ending)), \(running.errors)")
        #expect(took < 1, "gstcam ended \(took) s after the second signal")
    }

    @Test func anInterruptedBurstSaysSoOnce() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let running = try BackgroundGstcam(CaptureFailureTests.burst + ["--count", "0", "--dir", folder])
        defer { running.remove() }
        #expect(running.wait(10) { CaptureFailureTests.contents(folder).photos.count >= 3 })
        kill(running.process.processIdentifier, SIGINT)
        let ending = Self.ending(of: running, within: 5)
        #expect(ending?.status == 130)
        let saved = CaptureFailureTests.contents(folder).photos.count
        #expect(Self.messages(running) == ["gstcam: interrupted after \(saved) photos; every photo listed is complete."],
                "\(running.errors)")
    }

    // MARK: The camera failing

    /// An unplug (the node goes) and vivid's disconnect (the node stays, ENODEV and POLLERR until the last close).
    @Test(arguments: ["unplugged", "disconnected"])
    func aPreviewReportsAnUnplugAndExits1(_ fault: String) throws {
        Self.clearFaults()
        defer { Self.clearFaults() }
        let running = try BackgroundGstcam(["preview", "--device", Self.device, "--sink", "none", "--duration", "10", "--no-wait"])
        defer { running.remove() }
        #expect(running.wait(10) { running.output.contains("frames") }, "no figures: \(running.errors)")
        try Self.inject(fault, "")
        let ending = Self.ending(of: running, within: 3)
        #expect(ending?.status == 1, "\(String(describing: ending))")
        #expect(Self.messages(running) == ["gstcam: \(Self.device) was disconnected. Plug the camera back in and start again."],
                "\(running.errors)")
    }

    @Test(arguments: [("unplugged", ""), ("disconnected", ""), ("fail-ioctl", "DQBUF EIO")])
    func aFaultMidBurstKeepsThePhotosAndSaysWhatHappened(_ fault: String, _ content: String) throws {
        Self.clearFaults()
        defer { Self.clearFaults() }
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let running = try BackgroundGstcam(["capture", "--device", Self.device, "--width", "640", "--height", "480",
                                            "--immediate", "--count", "0",
                                            "--interval", "0.2", "--dir", folder])
        defer { running.remove() }
        #expect(running.wait(10) { CaptureFailureTests.contents(folder).photos.count >= 3 }, "\(running.errors)")
        try Self.inject(fault, content)
        let ending = Self.ending(of: running, within: 3)
        #expect(ending?.status == 1, "\(String(describing: ending))")
        let saved = CaptureFailureTests.contents(folder).photos.count
        let reason = fault != "fail-ioctl"
            ? "\(Self.device) was disconnected. Plug the camera back in and start again."
            : "\(Self.device) stopped streaming: its driver failed to hand over a frame (VIDIOC_DQBUF failed). Unplug the camera and plug it back in (or reload its driver), then start again."
        #expect(Self.messages(running) == ["gstcam: \(reason) The sequence stopped after \(saved) photos; those are complete."],
                "\(running.errors)")
        #expect(running.output.split(separator: "\n").count == saved, "every saved photo was reported")
        #expect(CaptureFailureTests.contents(folder).hidden.isEmpty)
        try CaptureFailureTests.expectWholePhotos(in: folder)
    }

    @Test(arguments: ["STREAMON", "QBUF", "QUERYBUF"], ["EBUSY", "EIO", "ENOSPC"])
    func aRefusedStreamStartIsNotAFormatProblem(_ call: String, _ errno: String) throws {
        Self.clearFaults()
        defer { Self.clearFaults() }
        try Self.inject("fail-ioctl", "\(call) \(errno)")
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try gstcam(["capture", "--device", Self.device, "-o", folder + "/x.jpg"])
        #expect(result.status == 1)
        #expect(Self.withoutModeLine(result.error) == "gstcam: \(Self.device) could not start streaming: its driver refused to set up or start "
                + "its frame buffers (VIDIOC_REQBUFS, QUERYBUF, QBUF or STREAMON failed). Close other programs that use "
                + "the camera, or unplug it and plug it back in, then try again.\n", "\(result.error)")
        #expect(CaptureFailureTests.contents(folder) == ([], []))
    }

    @Test func aPreviewSaysWhenFramesStopAndWhenTheyComeBack() throws {
        Self.clearFaults()
        defer { Self.clearFaults() }
        let running = try BackgroundGstcam(["preview", "--device", Self.device, "--sink", "none", "--duration", "7"])
        defer { running.remove() }
        #expect(running.wait(10) { running.output.contains("frames") })
        try Self.inject("stall", "")
        Thread.sleep(forTimeInterval: 3)
        Self.clearFaults()
        let ending = Self.ending(of: running, within: 10)
        #expect(ending?.status == 0, "\(running.errors)")
        #expect(Self.messages(running) == ["gstcam: No frames from \(Self.device) for 2 s", "gstcam: Frames from \(Self.device) again"],
                "\(running.errors)")
    }

    @Test func aStalledCameraEndsThePreviewAfterTheStallTimeout() throws {
        Self.clearFaults()
        defer { Self.clearFaults() }
        let running = try BackgroundGstcam(["preview", "--device", Self.device, "--sink", "none", "--duration", "20",
                                            "--stall-timeout", "3", "--no-wait"])
        defer { running.remove() }
        #expect(running.wait(10) { running.output.contains("frames") })
        try Self.inject("stall", "")
        let ending = Self.ending(of: running, within: 6)
        #expect(ending?.status == 1, "\(String(describing: ending))")
        #expect((2.5...5).contains(ending?.seconds ?? 0), "ended \(ending?.seconds ?? 0) s after the stall")
        #expect(Self.messages(running) == ["gstcam: No frames from \(Self.device) for 2 s",
                                           "gstcam: \(Self.device) stopped sending frames for 3 s. Check its cable or connection and start again."],
                "\(running.errors)")
    }
}
