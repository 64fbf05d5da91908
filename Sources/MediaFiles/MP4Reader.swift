/// What the gallery shows of an MP4 (ISO base media) file: the video track's picture size, how long the video
/// lasts and whether the file was finished. gstcam writes fragmented MP4 (a `moov` with the tracks, then
/// `moof` + `mdat` pairs, and an `mfra` index at a normal end), so the length comes from the last whole
/// fragment when the header has none — which is also how a file cut off by a crash is measured.
enum MP4Reader {
    struct Summary: Equatable {
        var size: PixelSize?
        var duration: Double?
        /// Finalized: a fragmented file with its `mfra` index, or a plain file whose `moov` has a duration.
        var isComplete: Bool
    }

    /// A box: its four-letter type and where its payload lies.
    struct Box {
        let type: String
        let payload: Range<Int>
        /// The whole box is inside the file (a cut-off write leaves the last one short).
        let isWhole: Bool
    }

    /// Starts with an `ftyp` box.
    static func hasSignature(_ source: some ByteSource) -> Bool {
        source.bytes(4..<8) == Array("ftyp".utf8)
    }

    static func summary(of source: some ByteSource) -> Summary? {
        guard hasSignature(source) else { return nil }
        let top = boxes(in: source, 0..<source.count)
        guard let movie = top.first(where: { $0.type == "moov" && $0.isWhole }) else {
            return Summary(size: nil, duration: nil, isComplete: false)
        }
        let inMovie = boxes(in: source, movie.payload)
        var movieDuration: Double?
        if let header = inMovie.first(where: { $0.type == "mvhd" }),
           let (timescale, duration) = timescaleAndDuration(source, header.payload), timescale > 0, duration > 0 {
            movieDuration = Double(duration) / Double(timescale)
        }
        let video = inMovie.filter { $0.type == "trak" }.lazy.compactMap { videoTrack(source, $0) }.first
        let fragmented = top.contains { $0.type == "moof" }
        var duration = movieDuration
        if fragmented, let video, let end = fragmentsEnd(source, top, track: video.id) {
            // The fragments hold the frames; a header duration (mehd, mvhd) is only there after a normal end.
            duration = max(duration ?? 0, Double(end) / Double(video.timescale))
        }
        let complete = fragmented ? top.contains { $0.type == "mfra" && $0.isWhole } : movieDuration != nil
        return Summary(size: video?.size, duration: duration, isComplete: complete)
    }

    static func boxes(in source: some ByteSource, _ range: Range<Int>) -> [Box] {
        var found: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, let size32 = source.bigEndian32(at: offset),
              let typeBytes = source.bytes(offset + 4..<offset + 8) {
            var headerLength = 8
            var size = size32
            if size32 == 1 {
                guard let large = source.bytes(offset + 8..<offset + 16) else { break }
                size = large.reduce(0) { $0 << 8 | Int($1) }
                headerLength = 16
            } else if size32 == 0 {
                size = range.upperBound - offset  // to the end
            }
            guard size >= headerLength else { break }
            let end = offset + size
            let type = String(decoding: typeBytes, as: UTF8.self)
            found.append(Box(type: type, payload: offset + headerLength..<min(end, range.upperBound),
                             isWhole: end <= range.upperBound))
            offset = end
        }
        return found
    }

    struct VideoTrack {
        let id: Int
        let timescale: Int
        let size: PixelSize?
    }

    /// The track if its handler is `vide`: its id, media timescale and picture size (tkhd's 16.16 width/height).
    private static func videoTrack(_ source: some ByteSource, _ track: Box) -> VideoTrack? {
        let inTrack = boxes(in: source, track.payload)
        guard let media = inTrack.first(where: { $0.type == "mdia" }) else { return nil }
        let inMedia = boxes(in: source, media.payload)
        guard let handler = inMedia.first(where: { $0.type == "hdlr" }),
              source.bytes(handler.payload.lowerBound + 8..<handler.payload.lowerBound + 12) == Array("vide".utf8),
              let mediaHeader = inMedia.first(where: { $0.type == "mdhd" }),
              let (timescale, _) = timescaleAndDuration(source, mediaHeader.payload), timescale > 0,
              let trackHeader = inTrack.first(where: { $0.type == "tkhd" }),
              let version = source.byte(at: trackHeader.payload.lowerBound) else { return nil }
        let id = source.bigEndian32(at: trackHeader.payload.lowerBound + (version == 1 ? 20 : 12)) ?? 0
        var size: PixelSize?
        let end = trackHeader.payload.upperBound
        if let width = source.bigEndian32(at: end - 8), let height = source.bigEndian32(at: end - 4),
           width >> 16 > 0, height >> 16 > 0 {
            size = PixelSize(width: width >> 16, height: height >> 16)
        }
        return VideoTrack(id: id, timescale: timescale, size: size)
    }

    /// mvhd / mdhd: (timescale, duration), version 0 (32-bit times) or 1 (64-bit).
    private static func timescaleAndDuration(_ source: some ByteSource, _ payload: Range<Int>) -> (Int, Int)? {
        guard let version = source.byte(at: payload.lowerBound) else { return nil }
        if version == 1 {
            guard let timescale = source.bigEndian32(at: payload.lowerBound + 20),
                  let high = source.bigEndian32(at: payload.lowerBound + 24),
                  let low = source.bigEndian32(at: payload.lowerBound + 28) else { return nil }
            return (timescale, high << 32 | low)
        }
        guard let timescale = source.bigEndian32(at: payload.lowerBound + 12),
              let duration = source.bigEndian32(at: payload.lowerBound + 16) else { return nil }
        return (timescale, duration)
    }

    /// The end of the last whole fragment of `track` (its `tfdt` start plus its samples' durations), in the
    /// track's timescale; a fragment whose `mdat` is cut off does not count.
    private static func fragmentsEnd(_ source: some ByteSource, _ top: [Box], track: Int) -> Int? {
        // From the end: tfdt says where a fragment starts, so only the last one with this track is read.
        for index in top.indices.reversed() where top[index].type == "moof" && top[index].isWhole {
            guard index + 1 < top.count, top[index + 1].type == "mdat", top[index + 1].isWhole else { continue }
            let ends = boxes(in: source, top[index].payload).filter { $0.type == "traf" }
                .compactMap { trackFragmentEnd(source, $0, track: track) }
            if let end = ends.max() { return end }
        }
        return nil
    }

    private static func trackFragmentEnd(_ source: some ByteSource, _ fragment: Box, track: Int) -> Int? {
        let parts = boxes(in: source, fragment.payload)
        guard let header = parts.first(where: { $0.type == "tfhd" }),
              let flags = source.bigEndian32(at: header.payload.lowerBound).map({ $0 & 0xFFFFFF }),
              source.bigEndian32(at: header.payload.lowerBound + 4) == track else { return nil }
        // tfhd's optional fields, in order: base data offset (8), sample description index (4), default duration.
        var offset = header.payload.lowerBound + 8
        if flags & 0x1 != 0 { offset += 8 }
        if flags & 0x2 != 0 { offset += 4 }
        let defaultDuration = flags & 0x8 != 0 ? source.bigEndian32(at: offset) : nil
        var start = 0
        if let decodeTime = parts.first(where: { $0.type == "tfdt" }), let version = source.byte(at: decodeTime.payload.lowerBound) {
            if version == 1 {
                start = (source.bigEndian32(at: decodeTime.payload.lowerBound + 4) ?? 0) << 32
                    | (source.bigEndian32(at: decodeTime.payload.lowerBound + 8) ?? 0)
            } else {
                start = source.bigEndian32(at: decodeTime.payload.lowerBound + 4) ?? 0
            }
        }
        var total = 0
        for run in parts where run.type == "trun" {
            guard let runFlags = source.bigEndian32(at: run.payload.lowerBound).map({ $0 & 0xFFFFFF }),
                  let count = source.bigEndian32(at: run.payload.lowerBound + 4) else { continue }
            var offset = run.payload.lowerBound + 8
            if runFlags & 0x1 != 0 { offset += 4 }  // data offset
            if runFlags & 0x4 != 0 { offset += 4 }  // first sample flags
            let fieldsPerSample = [0x100, 0x200, 0x400, 0x800].filter { runFlags & $0 != 0 }.count
            if runFlags & 0x100 == 0 {
                total += count * (defaultDuration ?? 0)
                continue
            }
            for sample in 0..<count {
                total += source.bigEndian32(at: offset + sample * fieldsPerSample * 4) ?? 0
            }
        }
        return start + total
    }
}
