import Foundation
import Testing
@testable import CameraErrors
@testable import Cameras
@testable import MediaFiles
@testable import Session

/// Bursts and timelapses from a running session: the camera stays open, photos come in sequence, each one a
/// different frame, and the preview keeps its frame rate.
@Suite(.serialized) struct BurstTests {
    static let device = "/dev/video14"

    func startCamera(width: Int = 320, height: Int = 240) async throws -> CameraSession {
        try await GstCameraTests.startCamera(Self.device, width: width, height: height)
    }

    @Test func twoHundredShotBurstGivesDistinctValidFilesWhileThePreviewKeepsItsRate() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startCamera(width: 640, height: 480)
        defer { session.stop() }
        let clock = ContinuousClock()
        let framesBefore = session.frameCount
        let started = clock.now
        var shots: [BurstPhoto] = []
        for try await shot in session.photos(count: 200, into: PhotoLibrary(directory: folder)) { shots.append(shot) }
        let elapsed = clock.now - started
        let previewRate = Double(session.frameCount - framesBefore) / elapsed.seconds
        #expect(shots.map(\.number) == Array(1...200))
        #expect(Set(shots.map(\.photo.path)).count == 200)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names.count == 200, "no temporary file left: \(names.filter { $0.hasPrefix(".") })")
        #expect(names.allSatisfy { $0.hasPrefix("IMG_") && $0.hasSuffix(".jpg") })
        #expect(names.first?.hasSuffix("_0001.jpg") == true && names.last?.hasSuffix("_0200.jpg") == true)
        var stamps: [UInt32] = []
        var contents = Set<Data>()
        for shot in shots {
            let data = try #require(FileManager.default.contents(atPath: shot.photo.path))
            let bytes = MemoryBytes(Array(data))
            #expect(JPEGReader.isComplete(bytes), "\(shot.photo.path) is a whole JPEG")
            #expect(JPEGReader.header(of: bytes)?.size == PixelSize(width: 640, height: 480), "\(shot.photo.path) is 640x480")
            #expect(shot.photo.width == 640 && shot.photo.height == 480)
            contents.insert(data)
        }
        #expect(contents.count == 200, "every photo is a different image")
        // Decoding every photo would take long; every tenth shows that they are different, increasing frames.
        for shot in shots where shot.number % 10 == 1 { stamps.append(try #require(try ShutterStamp.decode(photo: shot.photo.path))) }
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "frame stamps of shots 1, 11, 21…: \(stamps)")
        #expect(previewRate > 26, "the preview ran at \(previewRate) fps during the burst (camera: 30)")
        print("burst: 200 shots at 640x480 in \(elapsed), \(Double(200) / elapsed.seconds) shots/s; preview \(previewRate) fps")
    }

    @Test(arguments: [(1280, 720), (1920, 1080)])
    func anHDBurstLeavesThePreviewAtTheCameraRate(_ width: Int, _ height: Int) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startCamera(width: width, height: height)
        defer { session.stop() }
        let clock = ContinuousClock()
        let framesBefore = session.frameCount
        let started = clock.now
        var count = 0
        for try await _ in session.photos(count: 45, into: PhotoLibrary(directory: folder)) { count += 1 }
        let elapsed = clock.now - started
        let previewRate = Double(session.frameCount - framesBefore) / elapsed.seconds
        print("burst: 45 shots at \(width)x\(height) in \(elapsed), \(Double(count) / elapsed.seconds) shots/s; preview \(previewRate) fps")
        #expect(count == 45)
        #expect(previewRate > 26, "the preview ran at \(previewRate) fps during the burst (camera: 30)")
    }

    @Test func timelapseTakesAPhotoPerIntervalWithTheCameraOpen() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startCamera()
        defer { session.stop() }
        let clock = ContinuousClock()
        let started = clock.now
        var times: [Duration] = []
        var shots: [BurstPhoto] = []
        let names = try #require(NumberedPhotoNames(pattern: folder + "/lapse-%03d.png"))
        for try await shot in session.photos(count: 4, interval: .milliseconds(300), to: names) {
            times.append(clock.now - started)
            shots.append(shot)
        }
        #expect(shots.map(\.photo.path) == (1...4).map { folder + "/lapse-00\($0).png" })
        #expect(shots.allSatisfy { $0.missedIntervals == 0 })
        // Photo n is requested at (n-1) × 300 ms and saved within a frame and an encode after that.
        for (index, time) in times.enumerated() {
            let due = Duration.milliseconds(300 * index)
            #expect(time >= due && time < due + .milliseconds(250), "photo \(index + 1) saved at \(time), due \(due)")
        }
        let png = try #require(FileManager.default.contents(atPath: shots[0].photo.path))
        #expect(png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(session.state == .running)
    }

    /// Tags are set per photo: a timelapse's photos carry their own time, and the camera's name.
    @Test func timelapsePhotosCarryTheirOwnEXIF() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startCamera()
        defer { session.stop() }
        var paths: [String] = []
        for try await shot in session.photos(count: 2, interval: .milliseconds(1100), into: PhotoLibrary(directory: folder)) {
            paths.append(shot.photo.path)
        }
        let cardName = try CameraDiscovery.camera(matching: Self.device).name
        var times: [String] = []
        for path in paths {
            let result = try runProcess("/usr/bin/exiftool", ["-s", "-s", "-s", "-Software", "-Model", "-DateTimeOriginal", path])
            let lines = result.output.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(result.output)")
            #expect(lines.first == "gstcam")
            #expect(lines.dropFirst().first == cardName)
            times.append(lines.last ?? "")
        }
        #expect(times.count == 2 && times[0] != times[1], "DateTimeOriginal of the two photos 1.1 s apart: \(times)")
    }

    @Test func aTimelapseFasterThanTheCameraReportsMissedIntervals() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startCamera()
        defer { session.stop() }
        var shots: [BurstPhoto] = []
        // Frames come every 33 ms: a photo every 5 ms cannot be kept up with.
        let names = try #require(NumberedPhotoNames(pattern: folder + "/fast.jpg"))
        for try await shot in session.photos(count: 6, interval: .milliseconds(5), to: names) { shots.append(shot) }
        #expect(shots.map(\.number) == Array(1...6), "every photo is still taken, in sequence")
        // Six different frames span at least five frame intervals (165 ms): about 27 ticks of 5 ms go by
        // without a photo, and are reported.
        let missed = shots.map(\.missedIntervals)
        #expect(missed.reduce(0, +) >= 10, "missed intervals: \(missed)")
        #expect(shots[0].missedIntervals == 0)
        #expect(shots.allSatisfy { $0.late >= .zero && ($0.missedIntervals == 0 || $0.late > .zero) })
    }

    @Test func stoppingTheConsumerEndsTheBurstAndLaterPhotosStillWork() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startCamera()
        defer { session.stop() }
        var taken = 0
        for try await _ in session.photos(into: PhotoLibrary(directory: folder)) {
            taken += 1
            if taken == 3 { break }
        }
        try await Task.sleep(for: .milliseconds(200))
        // Frames requested before the break went to nobody: the next photo is the frame at its own request.
        var frames = session.frames().makeAsyncIterator()
        let frame = try #require(await frames.next())
        let current = try #require(ShutterStamp.decode(frame))
        let photo = try await session.capturePhoto(to: folder + "/after.jpg")
        let stamp = try #require(try ShutterStamp.decode(photo: photo.path))
        #expect(stamp >= current && stamp <= current + 1, "photo frame \(stamp), current \(current)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.filter { $0.hasPrefix(".") }.isEmpty, "no temporary files: \(names)")
    }

    @Test func stoppingTheSessionEndsTheBurstWithTheReason() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startCamera()
        var taken = 0
        await #expect(throws: CameraError.notRunning(state: "stopped")) {
            for try await _ in session.photos(interval: .milliseconds(50), into: PhotoLibrary(directory: folder)) {
                taken += 1
                if taken == 2 { session.stop() }
            }
        }
        #expect(taken == 2)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.count == 2 && names.allSatisfy { !$0.hasPrefix(".") }, "\(names)")
    }

    @Test func aSessionThatIsNotRunningRefusesABurst() async throws {
        let session = try CameraSession(configuration: CameraConfiguration(pipeline: "test-pattern"))
        await #expect(throws: CameraError.notRunning(state: "idle")) {
            for try await _ in session.photos(count: 2, into: PhotoLibrary(directory: "/tmp")) {}
        }
    }
}

@Suite struct BurstNamingTests {
    @Test func patternsPutTheNumberWhereTheyAsk() throws {
        #expect(NumberedPhotoNames(pattern: "out/shot-%03d.jpg")?.path(forShot: 7) == "out/shot-007.jpg")
        #expect(NumberedPhotoNames(pattern: "out/shot-%d.jpg")?.path(forShot: 12) == "out/shot-12.jpg")
        #expect(NumberedPhotoNames(pattern: "%04d")?.path(forShot: 3) == "0003")
        #expect(NumberedPhotoNames(pattern: "100%%-%02d.png")?.path(forShot: 5) == "100%-05.png")
        #expect(NumberedPhotoNames(pattern: "out/cat.jpg")?.path(forShot: 2) == "out/cat_0002.jpg")
        #expect(NumberedPhotoNames(pattern: "out.d/cat")?.path(forShot: 10000) == "out.d/cat_10000")
    }

    @Test(arguments: ["a-%d-%d.jpg", "a-%s.jpg", "a-%.jpg", "50%.jpg", "a-%123d.jpg"])
    func malformedPatternsAreRefused(_ pattern: String) {
        #expect(NumberedPhotoNames(pattern: pattern) == nil)
    }

    @Test func galleryBurstNamesShareTheStartTimeAndCount() throws {
        let library = PhotoLibrary(directory: "/tmp/nowhere-\(UUID().uuidString)")
        let names = library.newBurst(format: .jpeg)
        #expect(names.path(forShot: 1).hasSuffix("_0001.jpg"))
        #expect(names.path(forShot: 2).dropLast("_0002.jpg".count) == names.path(forShot: 1).dropLast("_0001.jpg".count))
    }

    @Test func scheduleWaitsForTicksAndCountsTheOnesPassedOver() {
        let start = ContinuousClock.now
        var schedule = BurstSchedule(start: start, interval: .seconds(1))
        var shot = schedule.nextShot(readyAt: start)
        #expect(shot.due == start && shot.missed == 0)
        shot = schedule.nextShot(readyAt: start + .milliseconds(100))
        #expect(shot.due == start + .seconds(1) && shot.missed == 0 && shot.late == .zero)
        // Ready at 3.5 s: ticks 2 and 3 have passed; the photo is for tick 3, tick 2 was missed.
        shot = schedule.nextShot(readyAt: start + .milliseconds(3500))
        #expect(shot.due == start + .milliseconds(3500) && shot.missed == 1 && shot.late == .milliseconds(500))
        shot = schedule.nextShot(readyAt: start + .milliseconds(3600))
        #expect(shot.due == start + .seconds(4) && shot.missed == 0)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
