import Foundation
import Testing
@testable import Session

@Suite struct DigitalZoomCropTests {
    @Test func centredTwiceZoomCropsAQuarterOfTheFrame() {
        let crop = DigitalZoomCrop(width: 640, height: 480, factor: 2, center: (0.5, 0.5))
        #expect(crop == DigitalZoomCrop(left: 160, right: 160, top: 120, bottom: 120))
    }

    @Test func panningIsClampedInsideTheFrameAndEven() {
        let corner = DigitalZoomCrop(width: 640, height: 480, factor: 4, center: (1, 0))
        #expect(corner == DigitalZoomCrop(left: 480, right: 0, top: 0, bottom: 360))
        let odd = DigitalZoomCrop(width: 641, height: 481, factor: 3, center: (0.37, 0.61))
        #expect(odd.left % 2 == 0 && odd.top % 2 == 0)
        #expect(odd.left + odd.right < 641 && odd.top + odd.bottom < 481)
        #expect((641 - odd.left - odd.right) % 2 == 0)
    }

    @Test func cropNeverGetsSmallerThan32Pixels() {
        #expect(DigitalZoomCrop.maximumFactor(width: 160, height: 120, limit: 8) == 120.0 / 32)
        let crop = DigitalZoomCrop(width: 160, height: 120, factor: 100, center: (0.5, 0.5))
        #expect(160 - crop.left - crop.right == 32)
        #expect(120 - crop.top - crop.bottom == 32)
    }
}

@Suite struct DigitalZoomSessionTests {
    private func pixels(_ path: String) throws -> (width: Int, height: Int, at: (Int, Int) -> (Int, Int, Int)) {
        let image = try decodeImage(path)
        return (image.width, image.height, { x, y in
            let offset = (y * image.width + x) * 3
            return (Int(image.rgb[offset]), Int(image.rgb[offset + 1]), Int(image.rgb[offset + 2]))
        })
    }

    /// Mean absolute difference between `zoomed` and the region of `full` it should show, over the colour bars
    /// (the test pattern's noise patch differs from frame to frame).
    private func difference(zoomed: String, full: String, factor: Int, left: Int, top: Int, rows: Int) throws -> Double {
        let z = try pixels(zoomed), f = try pixels(full)
        var total = 0, count = 0
        for y in stride(from: 2, to: rows, by: 3) {
            for x in stride(from: 2, to: z.width - 2, by: 3) {
                let a = z.at(x, y), b = f.at(left + x / factor, top + y / factor)
                total += abs(a.0 - b.0) + abs(a.1 - b.1) + abs(a.2 - b.2)
                count += 3
            }
        }
        return Double(total) / Double(count)
    }

    @Test func twiceZoomPhotoIsTheCentreOfTheFullPhotoMagnifiedAtTheSameSize() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        let full = try await session.capturePhoto(to: folder + "/full.jpg")
        let applied = try session.setZoom(Zoom(factor: 2))
        #expect(applied == Zoom(factor: 2))
        try await Task.sleep(for: .milliseconds(200))
        let zoomed = try await session.capturePhoto(to: folder + "/zoomed.jpg")
        #expect(zoomed.width == 320 && zoomed.height == 240)
        let matching = try difference(zoomed: zoomed.path, full: full.path, factor: 2, left: 80, top: 60, rows: 150)
        let unzoomed = try difference(zoomed: full.path, full: full.path, factor: 2, left: 80, top: 60, rows: 150)
        #expect(matching < 12, "a 2× photo should match the magnified centre (mean difference \(matching))")
        #expect(unzoomed > 40, "the comparison must tell a zoomed view from an unzoomed one (\(unzoomed))")
    }

    @Test func pannedZoomShowsThePannedRegion() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        let full = try await session.capturePhoto(to: folder + "/full.jpg")
        // Towards the top right: clamped so the crop (160×120) sits at the right edge, top.
        let applied = try session.setZoom(Zoom(factor: 2, centerX: 1, centerY: 0))
        #expect(applied == Zoom(factor: 2, centerX: 1, centerY: 0))
        try await Task.sleep(for: .milliseconds(200))
        let zoomed = try await session.capturePhoto(to: folder + "/panned.jpg")
        let difference = try difference(zoomed: zoomed.path, full: full.path, factor: 2, left: 160, top: 0, rows: 200)
        #expect(difference < 12, "mean difference \(difference)")
    }

    @Test func zoomIsClampedAndNeverRestartsThePreview() async throws {
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        #expect(try session.setZoom(Zoom(factor: 0.5)).factor == 1)
        // 8× is the limit, but a 240-pixel-high frame allows only 240 / 32 = 7.5× before the crop gets too small.
        #expect(try session.setZoom(Zoom(factor: 100)).factor == 7.5)
        #expect(try session.setZoom(Zoom(factor: 2, centerX: -3, centerY: 7)) == Zoom(factor: 2, centerX: 0, centerY: 1))
        // Zoom every 20 ms for 1.5 s while counting frames: a restart or dropped frames would show as fewer
        // frames than the source's 30 per second.
        let sizes = Task {
            var sizes = Set<String>()
            for await frame in session.frames() { sizes.insert("\(frame.width)x\(frame.height)") }
            return sizes
        }
        let before = session.frameCount
        let clock = ContinuousClock()
        let started = clock.now
        var factor = 1.0
        while clock.now - started < .milliseconds(1500) {
            factor = factor >= 4 ? 1 : factor + 0.25
            try session.setZoom(Zoom(factor: factor, centerX: factor / 5, centerY: 0.5))
            try await Task.sleep(for: .milliseconds(20))
        }
        let frames = session.frameCount - before
        #expect(session.state == .running)
        #expect(frames >= 42, "\(frames) frames in 1.5 s at 30 fps")
        session.stop()
        #expect(await sizes.value == ["320x240"])
    }

    @Test func aZoomChangeShowsWithinAFewFrames() async throws {
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        var latencies: [Int] = []
        var durations: [Duration] = []
        for round in 0..<6 {
            let factor = round % 2 == 0 ? 2.0 : 1.0
            // At 2× the left edge shows the yellow bar; at 1× the white one.
            func zoomed(_ frame: Frame) -> Bool { frame.rgb(x: 4, y: 20).blue < 100 }
            let frames = session.frames()
            var iterator = frames.makeAsyncIterator()
            guard let current = await iterator.next() else { break }
            let requested = ContinuousClock.now
            try session.setZoom(Zoom(factor: factor))
            while let frame = await iterator.next() {
                if zoomed(frame) == (factor == 2) {
                    latencies.append(frame.number - current.number)
                    durations.append(ContinuousClock.now - requested)
                    break
                }
            }
        }
        #expect(latencies.count == 6)
        #expect(latencies.allSatisfy { $0 <= 3 }, "frames until the new zoom showed: \(latencies)")
        print("zoom change → first frame at the new zoom: frames \(latencies), times \(durations.map { $0.formatted(.units(allowed: [.milliseconds])) })")
    }

    @Test func zoomChangesBetweenPhotosKeepTheSessionRunning() async throws {
        // Zoom changes renegotiate the pipeline; with photo branches coming and going this once failed with
        // not-negotiated when the four crop sides were applied one by one.
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try await startTestPattern(width: 320, height: 240)
        defer { session.stop() }
        for step in 0..<24 {
            try session.setZoom(Zoom(factor: Double(step % 4) + 1, centerX: Double(step % 3) / 2, centerY: Double(step % 5) / 4))
            try await Task.sleep(for: .milliseconds(30))
            if step % 3 == 0 {
                let photo = try await session.capturePhoto(to: folder + "/\(step).jpg")
                #expect(photo.width == 320 && photo.height == 240)
            }
        }
        #expect(session.state == .running)
    }

    @Test func zoomSetBeforeStartIsAppliedWhenItStarts() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try CameraSession(configuration: CameraConfiguration(pipeline: "test-pattern", width: 320, height: 240))
        try session.setZoom(Zoom(factor: 2))
        try await session.start()
        defer { session.stop() }
        let photo = try await session.capturePhoto(to: folder + "/z.jpg")
        let image = try pixels(photo.path)
        // Zoomed 2× on the centre, the left edge shows the yellow bar, not the white one.
        let left = image.at(5, 40)
        #expect(left.0 > 170 && left.1 > 170 && left.2 < 70, "\(left)")
    }
}
