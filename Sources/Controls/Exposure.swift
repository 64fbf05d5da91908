import CameraErrors
/// How the camera chooses its exposure.
public enum ExposureMode: Sendable, Equatable {
    /// The camera decides (`auto_exposure` = Auto, or Aperture Priority on UVC webcams, whose auto mode that is).
    case automatic
    /// A fixed exposure time in seconds (`auto_exposure` = Manual, `exposure_time_absolute` in 100 µs units).
    case manual(seconds: Double)
}

extension CameraControls {
    /// The exposure modes the camera offers (empty without `auto_exposure`/`exposure_time_absolute`), and the
    /// manual exposure time range in seconds.
    public func exposureCapabilities() throws(CameraError) -> (automatic: Bool, manual: ClosedRange<Double>?) {
        let mode = try control(id: ControlID.exposureAuto)?.control
        let time = try control(id: ControlID.exposureAbsolute)?.control
        let automatic = mode.map { automaticIndex(in: $0) != nil } ?? false
        let manual = time.map { Double($0.minimum) / 10_000...Double($0.maximum) / 10_000 }
        return (automatic, manual)
    }

    /// Sets the exposure mode and returns what was applied (a manual time is clamped to the camera's range and
    /// rounded to its 100 µs units).
    /// - Throws: `exposureUnavailable` when the camera has no such control.
    @discardableResult
    public func setExposure(_ requested: ExposureMode) throws(CameraError) -> ExposureMode {
        let mode = try control(id: ControlID.exposureAuto)?.control
        switch requested {
        case .automatic:
            guard let mode, let index = automaticIndex(in: mode) else { throw .exposureUnavailable(device: devicePath) }
            try write(index, id: ControlID.exposureAuto)
            return .automatic
        case let .manual(seconds):
            guard let time = try control(id: ControlID.exposureAbsolute)?.control else { throw .exposureUnavailable(device: devicePath) }
            if let mode, mode.menu.contains(where: { $0.index == 1 }) { try write(1, id: ControlID.exposureAuto) }
            let units = min(time.maximum, max(time.minimum, Int64((seconds * 10_000).rounded())))
            let applied = try write(units, id: ControlID.exposureAbsolute)
            return .manual(seconds: Double(applied?.value?.integer ?? units) / 10_000)
        }
    }

    /// V4L2_EXPOSURE_AUTO (0) when offered, else V4L2_EXPOSURE_APERTURE_PRIORITY (3), which is what UVC calls auto.
    private func automaticIndex(in mode: CameraControl) -> Int64? {
        [0, 3].first { index in mode.menu.contains { $0.index == index } }
    }
}
