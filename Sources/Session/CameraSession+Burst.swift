import CGStreamer
import MediaFiles

extension CameraSession {
    /// A burst (`interval` zero: as fast as the encoder goes) or a timelapse (one photo per `interval`) into
    /// `library`, named `IMG_<start time>_0001.jpg`, `_0002`…, with the camera kept open between photos. `count`
    /// nil runs until the consumer stops iterating or the session stops.
    ///
    /// Each photo is saved whole before it is yielded (temporary name, fsync, rename). The sequence ends by
    /// throwing the first failure — a full disk, a vanished folder, the session stopping — after the photos
    /// before it were yielded; nothing partial is left under a photo's name.
    public func photos(count: Int? = nil, interval: Duration = .zero, into library: PhotoLibrary,
                       format: PhotoFormat = .jpeg) -> AsyncThrowingStream<BurstPhoto, any Error> {
        let names = library.newBurst(format: format)
        // The folder is made, and checked to be writable, before any frame is taken.
        let prepare: @Sendable () throws -> Void = {
            try library.createDirectory()
            try AtomicPhotoWriter(finalPath: names.path(forShot: 1), collision: .addSuffix, format: format).discard()
        }
        return photoSequence(count: count, interval: interval, format: format, collision: .addSuffix,
                             prepare: prepare, path: names.path(forShot:))
    }

    /// The same into numbered files (see `NumberedPhotoNames`); an existing file ends the sequence with
    /// `outputExists` unless `overwrite`. The format is `format`, else the pattern's extension, else JPEG.
    public func photos(count: Int? = nil, interval: Duration = .zero, to names: NumberedPhotoNames,
                       format: PhotoFormat? = nil, overwrite: Bool = false) -> AsyncThrowingStream<BurstPhoto, any Error> {
        let format = format ?? PhotoFormat(path: names.path(forShot: 1)) ?? .jpeg
        let collision = PhotoNameCollision(overwrite: overwrite)
        // The folder is checked (and the first name, unless overwriting) before any frame is taken.
        let prepare: @Sendable () throws -> Void = {
            try PhotoOutput(finalPath: names.path(forShot: 1), collision: collision, format: format).discard()
        }
        return photoSequence(count: count, interval: interval, format: format, collision: collision,
                             prepare: prepare, path: names.path(forShot:))
    }

    /// How many frames a burst keeps in the encoder at once: one being encoded while the previous is written.
    static let burstDepth = 2

    private func photoSequence(count: Int?, interval: Duration, format: PhotoFormat, collision: PhotoNameCollision,
                               prepare: @escaping @Sendable () throws -> Void,
                               path: @escaping @Sendable (Int) -> String) -> AsyncThrowingStream<BurstPhoto, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: BurstPhoto.self)
        let task = Task {
            do {
                try prepare()
                try await self.takePhotos(count: count.map { max(0, $0) }, interval: max(.zero, interval),
                                          format: format, collision: collision, path: path) { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func takePhotos(count: Int?, interval: Duration, format: PhotoFormat, collision: PhotoNameCollision,
                            path: (Int) -> String, yield: (BurstPhoto) -> Void) async throws {
        let limit = count ?? Int.max
        guard limit > 0 else { return }
        // A burst takes turns with camera switches like a single photo does, but lets a waiting switch go between
        // photos (with no frame in flight): each photo is wholly one camera's, picture and EXIF alike.
        await operations.begin()
        defer { operations.end() }
        // Chosen once for the burst: a zoom changed meanwhile applies from the next burst (the camera's own
        // JPEGs do not show it).
        let branch = try runningPipeline().shutter.branch(for: format, unchangedPixels: zoom.keepsCameraPixels)
        try await shoot(limit: limit, interval: interval, branch: branch, format: format, collision: collision,
                        path: path, yield: yield)
    }

    private struct Shot {
        let number: Int
        let requested: ContinuousClock.Instant
        let missed: Int
        let late: Duration
        let image: OneShot<PhotoBranch.EncodedImage>
    }

    private func shoot(limit: Int, interval: Duration, branch: PhotoBranch, format: PhotoFormat,
                       collision: PhotoNameCollision, path: (Int) -> String, yield: (BurstPhoto) -> Void) async throws {
        let clock = ContinuousClock()
        var schedule = interval > .zero ? BurstSchedule(start: clock.now, interval: interval) : nil
        var inFlight: [Shot] = []
        var requested = 0
        func request(missed: Int = 0, late: Duration = .zero) throws {
            requested += 1
            let (pipeline, zoom) = shared.withLock { ($0.pipeline, $0.zoom) }
            let tags = pipeline?.photoTags(zoom: zoom) ?? PhotoTags(digitalZoom: zoom.digitalFactor)
            inFlight.append(Shot(number: requested, requested: clock.now, missed: missed, late: late,
                                 image: try branch.requestFrame(tags: tags)))
        }
        /// A burst keeps `burstDepth` frames in the encoder (one while a switch waits, so they drain); a timelapse
        /// requests each at its tick, letting the turn go while it waits for it.
        func topUp(ensuringOne: Bool) async throws {
            if var timelapse = schedule {
                guard inFlight.isEmpty, requested < limit else { return }
                let next = timelapse.nextShot(readyAt: clock.now)
                schedule = timelapse
                operations.end()
                do {
                    try await Task.sleep(until: next.due, clock: clock)
                } catch {
                    await operations.begin()
                    throw error
                }
                await operations.begin()
                try request(missed: next.missed, late: next.late)
            } else {
                while requested < limit, inFlight.count < Self.burstDepth {
                    if operations.isAwaited && !(ensuringOne && inFlight.isEmpty) { break }
                    try request()
                }
            }
        }
        /// Lets a waiting camera switch run once no frame of this burst is in flight.
        func giveWayToSwitch() async {
            guard inFlight.isEmpty, operations.isAwaited else { return }
            operations.end()
            await operations.begin()
        }
        // Frames still requested when the sequence ends early are withdrawn, so they go to no one else's photo.
        defer { for pending in inFlight { branch.withdraw(pending.image) } }
        var saved = 0
        while saved < limit {
            try Task.checkCancellation()
            await giveWayToSwitch()
            try await topUp(ensuringOne: true)
            let shot = inFlight.removeFirst()
            let image: PhotoBranch.EncodedImage
            do {
                image = try await shot.image.value(timeout: configuration.photoTimeout, what: "A frame for photo \(shot.number)")
            } catch {
                branch.withdraw(shot.image)
                throw error
            }
            // The next frame is encoded while this one is written.
            if schedule == nil { try await topUp(ensuringOne: false) }
            let savedPath = try PhotoOutput.save(image.bytes, to: path(shot.number), collision: collision, format: format)
            let photo = Photo(path: savedPath, width: image.width, height: image.height,
                              duration: clock.now - shot.requested)
            saved += 1
            notify(.photoSaved(photo))
            yield(BurstPhoto(number: shot.number, photo: photo, missedIntervals: shot.missed, late: shot.late))
        }
    }

}
