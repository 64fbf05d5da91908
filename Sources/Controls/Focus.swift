import Glibc
import CameraErrors
import V4L2

/// How the lens focuses.
public enum FocusMode: Sendable, Equatable {
    /// Continuous auto focus (`focus_automatic_continuous` on).
    case continuous
    /// A fixed lens position, 0 (one end of `focus_absolute`'s range, usually infinity) … 1 (the other end).
    case manual(position: Double)
    /// Focus once (`auto_focus_start`) and wait up to `timeout` seconds for `auto_focus_status` to settle.
    case once(timeout: Double = 3)
}

/// What a focus request ended in.
public enum FocusResult: Sendable, Equatable {
    case continuous
    /// The lens position read back, 0…1.
    case manual(position: Double)
    /// One-shot focus reported "reached".
    case reached
    /// One-shot focus reported "failed".
    case failed
    /// `auto_focus_status` still said "busy" when the timeout passed.
    case timedOut
}

/// A point in the frame, 0…1 from the left and from the top.
public struct NormalizedPoint: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// What `focus(at:)` was able to do: AVFoundation apps set focus and exposure point together on a tap; a
/// camera without the UVC region-of-interest controls cannot, and the result says so instead of pretending.
public struct PointFocusResult: Sendable, Equatable {
    public enum Method: String, Sendable, Equatable {
        /// The ROI rectangle was set around the point (focus bit, and exposure bit where offered), then focus ran.
        case regionOfInterest
        /// No ROI: one-shot focus ran on the camera's own choice of region; the point was not used.
        case oneShotWithoutPoint
        /// No ROI and no one-shot focus: nothing was done.
        case none
    }
    public var method: Method
    /// The rectangle written, in the control's own coordinates.
    public var rectangle: ControlRectangle?
    /// Whether the point also drives auto exposure.
    public var exposurePoint: Bool
    /// The outcome of the focus run, when one ran (nil while continuous auto focus takes the point on its own).
    public var focus: FocusResult?
}

extension CameraControls {
    /// The focus modes the camera offers.
    public func focusModes() throws(CameraError) -> (continuous: Bool, manual: Bool, once: Bool, point: Bool) {
        (try query(id: ControlID.focusAuto) != nil, try query(id: ControlID.focusAbsolute) != nil,
         try query(id: ControlID.autoFocusStart) != nil, try query(id: ControlID.regionOfInterestRectangle) != nil)
    }

    /// Applies a focus mode and returns the outcome.
    /// - Throws: `focusUnavailable` when the camera lacks the control the mode needs.
    @discardableResult
    public func setFocus(_ mode: FocusMode) async throws(CameraError) -> FocusResult {
        let hasContinuous = try query(id: ControlID.focusAuto) != nil
        switch mode {
        case .continuous:
            guard hasContinuous else { throw .focusUnavailable(device: devicePath) }
            try write(1, id: ControlID.focusAuto)
            return .continuous
        case let .manual(position):
            guard let lens = try control(id: ControlID.focusAbsolute)?.control else { throw .focusUnavailable(device: devicePath) }
            if hasContinuous { try write(0, id: ControlID.focusAuto) }
            let applied = try write(Self.value(atFraction: position, of: lens), id: ControlID.focusAbsolute)
            return .manual(position: Self.fraction(of: applied?.value?.integer ?? lens.minimum, in: lens))
        case let .once(timeout):
            guard try query(id: ControlID.autoFocusStart) != nil else { throw .focusUnavailable(device: devicePath) }
            if hasContinuous { try write(0, id: ControlID.focusAuto) }
            return try await focusOnce(timeout: timeout)
        }
    }

    /// Focuses (and, where the camera allows, meters exposure) at a point of the frame: with the UVC
    /// region-of-interest controls, sets the rectangle around the point in the control's coordinates (read with
    /// V4L2_CTRL_WHICH_MIN_VAL / MAX_VAL) and the auto bits, then runs one-shot focus if the camera has it;
    /// otherwise one-shot focus alone, or nothing. The result says which.
    public func focus(at point: NormalizedPoint, timeout: Double = 3) async throws(CameraError) -> PointFocusResult {
        let hasOnce = try query(id: ControlID.autoFocusStart) != nil
        guard let roi = try query(id: ControlID.regionOfInterestRectangle),
              let bounds = regionBounds(roi) else {
            guard hasOnce else { return PointFocusResult(method: .none, rectangle: nil, exposurePoint: false, focus: nil) }
            return PointFocusResult(method: .oneShotWithoutPoint, rectangle: nil, exposurePoint: false,
                                    focus: try await setFocus(.once(timeout: timeout)))
        }
        let rectangle = Self.regionOfInterest(around: point, minimum: bounds.minimum, maximum: bounds.maximum)
        let roiControl = try describe(roi, className: nil)
        _ = try write(.rectangle(rectangle), to: roiControl, query: roi, asTyped: rectangle.description)
        var exposurePoint = false
        if let auto = try control(id: ControlID.regionOfInterestAuto)?.control {
            let allowed = auto.maximum
            var bits = (auto.value?.integer ?? 0) | (RegionOfInterestAuto.focus & allowed)
            exposurePoint = allowed & RegionOfInterestAuto.exposure != 0
            if exposurePoint { bits |= RegionOfInterestAuto.exposure }
            try write(bits, id: ControlID.regionOfInterestAuto)
        }
        let written = try describe(roi, className: nil).value
        let applied: ControlRectangle = if case let .rectangle(read)? = written { read } else { rectangle }
        let focus: FocusResult? = hasOnce ? try await focusOnce(timeout: timeout) : nil
        return PointFocusResult(method: .regionOfInterest, rectangle: applied, exposurePoint: exposurePoint, focus: focus)
    }

    /// A rectangle a quarter of the full width and height (never below the control's minimum size), centred on
    /// the point and moved inside the full area.
    static func regionOfInterest(around point: NormalizedPoint, minimum: ControlRectangle, maximum: ControlRectangle) -> ControlRectangle {
        let fullWidth = Double(maximum.width), fullHeight = Double(maximum.height)
        let width = max(Double(minimum.width), (fullWidth / 4).rounded(.down))
        let height = max(Double(minimum.height), (fullHeight / 4).rounded(.down))
        let x = min(max(point.x, 0), 1) * fullWidth, y = min(max(point.y, 0), 1) * fullHeight
        let left = min(max(x - width / 2, 0), max(fullWidth - width, 0)).rounded(.down)
        let top = min(max(y - height / 2, 0), max(fullHeight - height, 0)).rounded(.down)
        return ControlRectangle(left: maximum.left + Int32(left), top: maximum.top + Int32(top),
                                width: UInt32(min(width, fullWidth)), height: UInt32(min(height, fullHeight)))
    }

    /// The ROI control's smallest and largest rectangles; nil when the driver cannot report them.
    private func regionBounds(_ roi: ControlQuery) -> (minimum: ControlRectangle, maximum: ControlRectangle)? {
        guard case let .success(.rectangle(minimum)) = device.readControl(roi, which: .minimum),
              case let .success(.rectangle(maximum)) = device.readControl(roi, which: .maximum),
              maximum.width > 0, maximum.height > 0 else { return nil }
        return (minimum, maximum)
    }

    /// Presses `auto_focus_start` and polls `auto_focus_status` (bits: 1 busy, 2 reached, 4 failed) every 20 ms.
    private func focusOnce(timeout: Double) async throws(CameraError) -> FocusResult {
        try write(1, id: ControlID.autoFocusStart)
        guard try query(id: ControlID.autoFocusStatus) != nil else { return .reached }
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        while true {
            let status = try control(id: ControlID.autoFocusStatus)?.control.value?.integer ?? 0
            if status & 4 != 0 { return .failed }
            if status & 1 == 0 && status & 2 != 0 { return .reached }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            if Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9 > timeout { return .timedOut }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
    }
}
