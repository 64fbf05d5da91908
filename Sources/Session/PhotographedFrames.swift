import CGStreamer
import Synchronization

/// Which frames have been photographed, shared by a pipeline's photo branches: each frame goes into one photo
/// at most, whichever format asks, so photos asked for in quick succession are different moments. Frames are
/// known by their timestamp, which only grows; a frame without one cannot be told apart and is always free.
final class PhotographedFrames: Sendable {
    private let newest = Mutex<UInt64?>(nil)

    /// Claims the frame with `timestamp` for a photo; false if it (or a later frame) was claimed already.
    func claim(_ timestamp: GstClockTime) -> Bool {
        guard timestamp != gstcam_clock_time_none() else { return true }
        return newest.withLock { newest in
            if let newest, UInt64(timestamp) <= newest { return false }
            newest = UInt64(timestamp)
            return true
        }
    }
}
