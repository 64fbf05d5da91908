import CGStreamer

/// A pipeline's message bus, read from a thread of our own.
///
/// `@unchecked Sendable`: one strong reference, nothing mutable; GstBus is MT-safe (any thread may post
/// or pop).
public final class Bus: @unchecked Sendable {
    public let pointer: UnsafeMutablePointer<GstBus>

    public init(owning pointer: UnsafeMutablePointer<GstBus>) { self.pointer = pointer }
    deinit { gst_object_unref(pointer) }

    /// Blocks until a message arrives (or `timeout` nanoseconds pass; nil waits forever). An error's source is
    /// placed in `scopes` (`BusError.scope`) while the message still holds it.
    public func pop(timeout: GstClockTime?, scopes: [Element] = []) -> BusMessage? {
        guard let message = gst_bus_timed_pop(pointer, timeout ?? gstcam_clock_time_none()) else { return nil }
        defer { gst_message_unref(message) }
        return BusMessage(message, scopes: scopes)
    }

    /// Wakes a thread blocked in `pop` with an application message of this name.
    public func postWakeUp(_ name: String) {
        let structure = gst_structure_new_empty(name)
        if let message = gst_message_new_application(nil, structure) {
            gst_bus_post(pointer, message)
        }
    }
}
