import Controls

/// When the flash fires for a photo, as camera apps offer it: never, always, or when the scene is dark.
public enum FlashMode: String, Sendable, CaseIterable, Codable {
    case off, on, auto

    /// The mode after this one when a key or button cycles them: off → on → auto → off.
    public var next: FlashMode {
        switch self {
        case .off: .on
        case .on: .auto
        case .auto: .off
        }
    }

    /// "Off", "On", "Auto" (as the screen shows it: "Flash: Auto").
    public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// How bright the picture is, from a preview frame: the mean luma (Rec. 601, 0…255) of a grid of its pixels.
public enum SceneBrightness {
    /// Auto flash fires below this mean luma (a quarter of the way up: a picture mostly in shadow). The virtual
    /// camera's scene reads about 126, and about 27 with brightness −64 and a 0.3 ms manual exposure
    /// (docs/camera-screen.md, key `l`).
    public static let darkBelow = 60.0

    /// The mean luma of an RGB frame (every 4th pixel of every 4th row), nil for other formats.
    public static func meanLuma(of frame: Frame) -> Double? {
        guard frame.format == .rgb, frame.width > 0, frame.height > 0,
              frame.bytes.count >= (frame.height - 1) * frame.bytesPerRow + frame.width * 3 else { return nil }
        var sum = 0.0, count = 0
        for y in stride(from: 0, to: frame.height, by: 4) {
            let row = y * frame.bytesPerRow
            for x in stride(from: 0, to: frame.width, by: 4) {
                let offset = row + x * 3
                sum += 0.299 * Double(frame.bytes[offset]) + 0.587 * Double(frame.bytes[offset + 1])
                    + 0.114 * Double(frame.bytes[offset + 2])
                count += 1
            }
        }
        return sum / Double(count)
    }
}

/// Whether the flash fires for a photo, and the brightness auto decided from.
public struct FlashDecision: Sendable, Equatable {
    public var fires: Bool
    /// The scene's mean luma (auto only; nil when no frame could be read).
    public var meanLuma: Double?
}

extension CameraSession {
    /// Whether a photo taken now in `mode` fires the flash. On: always (a camera without a flash then fails the
    /// photo with `flashUnavailable`); off: never; auto: when the newest preview frame's mean luma is below
    /// `SceneBrightness.darkBelow` and the camera has a flash (else the photo is taken without).
    public func flashDecision(_ mode: FlashMode) async -> FlashDecision {
        switch mode {
        case .off: return FlashDecision(fires: false)
        case .on: return FlashDecision(fires: true)
        case .auto:
            let luma = await newestFrame(within: .seconds(1)).flatMap(SceneBrightness.meanLuma(of:))
            let hasFlash = (try? controls())?.hasFlash ?? false
            return FlashDecision(fires: hasFlash && (luma.map { $0 < SceneBrightness.darkBelow } ?? false), meanLuma: luma)
        }
    }

    /// The next preview frame, or nil when none comes within `timeout` (a stalled or stopped camera).
    func newestFrame(within timeout: Duration) async -> Frame? {
        let frames = frames()
        return await withTaskGroup(of: Frame?.self) { group in
            group.addTask {
                for await frame in frames { return frame }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

extension FlashDecision {
    init(fires: Bool) { self.init(fires: fires, meanLuma: nil) }
}
