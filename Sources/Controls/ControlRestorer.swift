import Synchronization
import V4L2

/// Puts back the camera controls a session changed (torch, focus, exposure, optical zoom, `--set` values, the
/// screen's keys) when the session ends, so that its settings do not leak into every later program: a torch
/// left burning, a manual exposure that makes the next video call dark. `gstcam set` (a `CameraControls` made
/// without a restorer) is the way to change a camera for good.
///
/// Each control's value is recorded before the session first writes it; `restoreAll` writes the values back
/// in the reverse order of those first changes, so an automatic mode switched off before its manual value was
/// set is switched back on last (the manual value is still writable when it is restored).
public final class ControlRestorer: Sendable {
    private struct EarlierValue: Sendable {
        let device: String
        let query: ControlQuery
        let value: ControlValue
    }

    private struct Key: Hashable {
        let device: String
        let id: UInt32
    }

    private struct Record {
        var order: [EarlierValue] = []
        var seen: Set<Key> = []
    }

    private let record = Mutex(Record())

    public init() {}

    /// Called with the value read just before a write; only the first call per control counts. Controls
    /// without a value to go back to (buttons, write-only ones) are not recorded.
    func noteBeforeWrite(device: String, query: ControlQuery, current: ControlValue?) {
        guard let current, query.type != .button else { return }
        record.withLock { record in
            guard record.seen.insert(Key(device: device, id: query.id)).inserted else { return }
            record.order.append(EarlierValue(device: device, query: query, value: current))
        }
    }

    /// Writes every recorded value back (best effort: a camera that is gone or refuses a value does not stop
    /// the others) and forgets them. A second caller waits until the first has finished, so a process that
    /// exits right after `stop()` returns has its camera restored.
    public func restoreAll() {
        record.withLock { record in
            var devices: [String: CameraControls] = [:]
            for earlier in record.order.reversed() {
                if devices[earlier.device] == nil { devices[earlier.device] = try? CameraControls(devicePath: earlier.device) }
                _ = devices[earlier.device]?.device.writeControl(earlier.query, value: earlier.value)
            }
            record = Record()
        }
    }
}
