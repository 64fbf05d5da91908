import Foundation
import Testing
@testable import LinuxSystem

/// What `gstcam capture` leaves behind when saving fails mid-way: every file under a photo's name is a whole
/// image, nothing temporary stays, and the command says why with a non-zero status.
@Suite(.serialized) struct CaptureFailureTests {
    /// A burst on the test pattern (no camera needed) at 640x480: JPEGs of about 30 KB.
    static let burst = ["capture", "--pipeline", "test-pattern", "--immediate"]

    /// A tmpfs of `size` mounted on a new folder (the tests run as root), unmounted and removed by `unmount`.
    struct SmallDisk {
        let path: String
        init(size: String, readOnly: Bool = false) throws {
            path = try makeTemporaryFolder()
            let options = "size=\(size)" + (readOnly ? ",ro" : "")
            let result = try runProcess("/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", path])
            try #require(result.status == 0, "mount -t tmpfs failed (are the tests running as root?): \(result.error)")
        }
        func unmount() {
            _ = try? runProcess("/bin/umount", [path])
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// The names in `folder`: photos, and hidden (temporary) files.
    static func contents(_ folder: String) -> (photos: [String], hidden: [String]) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        return (names.filter { !$0.hasPrefix(".") }, names.filter { $0.hasPrefix(".") })
    }

    /// Every photo in `folder` is a whole JPEG that decodes to `width`×`height`.
    static func expectWholePhotos(in folder: String, width: Int = 640, height: Int = 480) throws {
        for name in contents(folder).photos {
            let data = try #require(FileManager.default.contents(atPath: folder + "/" + name))
            #expect(data.prefix(2) == Data([0xFF, 0xD8]) && data.suffix(2) == Data([0xFF, 0xD9]), "\(name) is whole")
            let image = try decodeImage(folder + "/" + name)
            #expect(image.width == width && image.height == height && image.rgb.count == width * height * 3, "\(name) decodes")
        }
    }

    /// gstcam in the background: waits for it to end (killing it after `timeout`); its status, stdout and stderr.
    static func finish(_ running: BackgroundGstcam, timeout: Double = 15) -> (exited: Bool, status: Int32, output: String, error: String) {
        let exited = running.wait(timeout) { !running.process.isRunning }
        killAndWait(running.process)
        defer { try? FileManager.default.removeItem(atPath: running.folder) }
        return (exited, running.process.terminationStatus, running.output, running.errors)
    }

    @Test func aFullDiskEndsTheBurstWithTheReasonAndOnlyWholePhotos() throws {
        let disk = try SmallDisk(size: "200k")
        defer { disk.unmount() }
        let result = try gstcam(Self.burst + ["--count", "100", "--dir", disk.path])
        #expect(result.status == 1)
        #expect(result.error.contains("No space left on device"), "\(result.error)")
        #expect(result.error.contains("The sequence stopped after"), "\(result.error)")
        let (photos, hidden) = Self.contents(disk.path)
        #expect(hidden.isEmpty, "temporary files left: \(hidden)")
        #expect(photos.count > 0 && photos.count < 100)
        #expect(result.output.split(separator: "\n").count == photos.count, "one line per saved photo")
        try Self.expectWholePhotos(in: disk.path)
    }

    @Test func aFullDiskFailsASinglePhotoWithoutLeavingPartOfIt() throws {
        let disk = try SmallDisk(size: "12k")
        defer { disk.unmount() }
        let result = try gstcam(["capture", "--pipeline", "test-pattern", "--immediate", "-o", disk.path + "/one.jpg"])
        #expect(result.status == 1)
        #expect(result.error.contains("Writing \(disk.path)/one.jpg failed: No space left on device"), "\(result.error)")
        #expect(Self.contents(disk.path) == ([], []))
    }

    @Test(arguments: [false, true])
    func anUnwritableFolderIsReportedAndNothingIsWritten(_ burst: Bool) throws {
        let disk = try SmallDisk(size: "200k", readOnly: true)
        defer { disk.unmount() }
        let result = try gstcam(Self.burst + (burst ? ["--count", "5"] : []) + ["--dir", disk.path])
        #expect(result.status == 1)
        #expect(result.error.contains("is on a read-only file system"), "\(result.error)")
        #expect(Self.contents(disk.path) == ([], []))
    }

    @Test func aFolderRemovedMidBurstEndsItWithTheReason() throws {
        let folder = try makeTemporaryFolder() + "/shots"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: FilePath.directory(of: folder)) }
        let running = try BackgroundGstcam(Self.burst + ["--count", "0", "--interval", "0.1", "-o", folder + "/shot-%03d.jpg"])
        let started = running.wait(10) { Self.contents(folder).photos.count >= 3 }
        try? FileManager.default.removeItem(atPath: folder)
        let result = Self.finish(running)
        #expect(started, "three photos before the folder was removed: \(result.error)")
        #expect(result.exited, "gstcam kept running after its folder was removed")
        #expect(result.status == 1)
        #expect(result.error.contains("the directory \(folder) does not exist"), "\(result.error)")
        #expect(result.error.contains("The sequence stopped after"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: folder), "the folder was not made again")
    }

    @Test func ctrlCDuringABurstExitsWith130AndLeavesOnlyWholePhotos() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let running = try BackgroundGstcam(Self.burst + ["--count", "0", "--dir", folder])
        let started = running.wait(10) { Self.contents(folder).photos.count >= 5 }
        kill(running.process.processIdentifier, SIGINT)
        let result = Self.finish(running)
        #expect(started, "five photos before Ctrl-C: \(result.error)")
        // A process that never saw the signal (a blocked signal mask) would have been killed at the timeout.
        #expect(result.exited, "gstcam did not stop on SIGINT")
        #expect(running.process.terminationReason == .exit && result.status == 130, "status \(result.status)")
        #expect(result.error.contains("gstcam: interrupted after"), "\(result.error)")
        let (photos, hidden) = Self.contents(folder)
        #expect(hidden.isEmpty, "temporary files left: \(hidden)")
        #expect(result.output.split(separator: "\n").count == photos.count, "every saved photo was reported")
        try Self.expectWholePhotos(in: folder)
    }
}
