/// A frame size and rate a camera delivers, as the `source-caps` filter asks for it.
struct SourceMode: Equatable, Sendable {
    var width: Int
    var height: Int
    var framerate: Int

    /// The caps for `source-caps`: Motion-JPEG for pipelines that decode it, raw video otherwise.
    func caps(compressed: Bool) -> String {
        (compressed ? "image/jpeg" : "video/x-raw") + ",width=\(width),height=\(height),framerate=\(framerate)/1"
    }

    /// The mode of `camera` closest to `wanted` among its compressed (Motion-JPEG) or raw formats: the wanted
    /// size if offered, else a size of the same shape, the smallest that covers the wanted size or else the
    /// largest; at the wanted rate if offered, else the fastest below it, else the slowest above. Nil when the
    /// camera offers no format of that kind.
    static func closest(to wanted: SourceMode, in formats: [CameraFormat], compressed: Bool) -> SourceMode? {
        let sizes = formats.filter { $0.isCompressed == compressed && !$0.pixelFormat.isGreyscale }.flatMap(\.sizes)
        guard !sizes.isEmpty else { return nil }
        let sameShape = sizes.filter { $0.width * wanted.height == $0.height * wanted.width }
        let pool = sameShape.isEmpty ? sizes : sameShape
        let covering = pool.filter { $0.width >= wanted.width && $0.height >= wanted.height }
        let size = covering.min { $0.width * $0.height < $1.width * $1.height }
            ?? pool.max { $0.width * $0.height < $1.width * $1.height }!
        return mode(size, in: sizes, framerate: wanted.framerate)
    }

    /// The largest frame size `formats` offer in the compressed or raw kind, at `framerate` if offered there.
    static func largest(in formats: [CameraFormat], compressed: Bool, framerate: Int) -> SourceMode? {
        let sizes = formats.filter { $0.isCompressed == compressed && !$0.pixelFormat.isGreyscale }.flatMap(\.sizes)
        guard let size = sizes.max(by: { $0.width * $0.height < $1.width * $1.height }) else { return nil }
        return mode(size, in: sizes, framerate: framerate)
    }

    /// `size` at the wanted rate if offered, else the fastest below it, else the slowest above.
    private static func mode(_ size: CameraFrameSize, in sizes: [CameraFrameSize], framerate: Int) -> SourceMode {
        let rates = Set(sizes.filter { $0.width == size.width && $0.height == size.height }
            .flatMap(\.framesPerSecond).map { Int($0.rounded()) })
        let rate = rates.contains(framerate) ? framerate : rates.filter { $0 < framerate }.max() ?? rates.min() ?? framerate
        return SourceMode(width: size.width, height: size.height, framerate: rate)
    }
}
