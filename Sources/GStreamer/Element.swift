import CGStreamer
import CameraErrors

/// An owned reference to a GstElement (a bin or pipeline too).
///
/// `@unchecked Sendable`: the wrapper holds one strong GStreamer reference and nothing mutable of its own;
/// GstObject reference counting and the element calls used here (properties, state, pads, bins) are
/// documented MT-safe in GStreamer, so sharing the pointer between threads is safe.
public final class Element: @unchecked Sendable {
    public let pointer: UnsafeMutablePointer<GstElement>

    /// Takes over a reference the caller owns (e.g. from gst_bin_get_by_name); a floating one (a freshly
    /// parsed or made element) is sunk so that this wrapper owns it.
    public init(owning pointer: UnsafeMutablePointer<GstElement>) {
        if g_object_is_floating(pointer) != 0 { gst_object_ref_sink(pointer) }
        self.pointer = pointer
    }

    /// Adds a reference to a borrowed pointer.
    init(borrowing pointer: UnsafeMutablePointer<GstElement>) {
        gst_object_ref(pointer)
        self.pointer = pointer
    }

    deinit { gst_object_unref(pointer) }

    /// A new element made by `factory` ("clocksync"), named `name`; a factory GStreamer does not have is a
    /// `CameraError.missingElement` naming the Debian package that brings it.
    public static func make(_ factory: String, name: String) throws -> Element {
        GStreamerRuntime.ensureInitialized()
        guard let element = gst_element_factory_make(factory, name) else {
            throw CameraError.missingElement(factory: factory, package: ElementPackages.package(for: factory), file: nil)
        }
        return Element(owning: element)
    }

    /// Whether the element has a property called `name` (setting one it lacks only logs a warning).
    public func hasProperty(_ name: String) -> Bool { gstcam_has_property(pointer, name) != 0 }

    /// Whether the element is a live source (a camera, `videotestsrc is-live=true`): one whose frames come at
    /// their own pace, not as fast as they are asked for. Known for a source element and for an element with an
    /// `is-live` property (imagefreeze); nil for anything else (a bin such as rtspsrc), which only its streaming
    /// tells (a latency query: `Pad.upstreamIsLive`).
    public var isLiveSource: Bool? {
        if gstcam_is_base_src(pointer) != 0 { return gst_base_src_is_live(gstcam_as_base_src(pointer)) != 0 }
        return hasProperty("is-live") ? int("is-live") != 0 : nil
    }

    public func set(_ name: String, _ value: Bool) { gstcam_set_bool(pointer, name, value ? 1 : 0) }
    public func set(_ name: String, _ value: Int32) { gstcam_set_int(pointer, name, value) }
    public func set(_ name: String, _ value: UInt32) { gstcam_set_uint(pointer, name, value) }
    public func set(_ name: String, _ value: String) { gstcam_set_string(pointer, name, value) }

    /// Sets a caps property from its string form (e.g. a capsfilter's "caps").
    public func setCaps(_ name: String, _ description: String) {
        guard let caps = gst_caps_from_string(description) else { return }
        gstcam_set_caps(pointer, name, caps)
        gst_mini_object_unref(UnsafeMutableRawPointer(caps).assumingMemoryBound(to: GstMiniObject.self))
    }

    /// A caps property in its string form.
    public func caps(_ name: String) -> String? {
        takeGString(gstcam_get_caps_string(pointer, name))
    }

    func int(_ name: String) -> Int32 { gstcam_get_int(pointer, name) }

    /// A guint64 property (e.g. ximagesink's "window-width").
    public func uint64(_ name: String) -> UInt64 { UInt64(gstcam_get_uint64(pointer, name)) }

    /// The factory the element was made by ("ximagesink"), nil for elements made without one.
    public var factoryName: String? { gstcam_element_factory_name(pointer).map { String(cString: $0) } }

    /// A bin's child by name, searching nested bins; nil for a missing name or a non-bin.
    public func child(named name: String) -> Element? {
        guard gstcam_is_bin(pointer) != 0, let found = gst_bin_get_by_name(gstcam_as_bin(pointer), name) else { return nil }
        return Element(owning: found)
    }

    /// The bin holding the element; nil for a top-level one.
    public var parent: Element? {
        gst_object_get_parent(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self)).map {
            Element(owning: UnsafeMutableRawPointer($0).assumingMemoryBound(to: GstElement.self))
        }
    }

    public func add(_ element: Element) -> Bool {
        gst_bin_add(gstcam_as_bin(pointer), element.pointer) != 0
    }

    public func remove(_ element: Element) -> Bool {
        gst_bin_remove(gstcam_as_bin(pointer), element.pointer) != 0
    }

    public func staticPad(_ name: String) -> Pad? {
        gst_element_get_static_pad(pointer, name).map { Pad(owning: $0) }
    }

    /// A new request pad from a template such as "src_%u" (tee).
    public func requestPad(_ template: String) -> Pad? {
        gst_element_request_pad_simple(pointer, template).map { Pad(owning: $0) }
    }

    public func releaseRequestPad(_ pad: Pad) {
        gst_element_release_request_pad(pointer, pad.pointer)
    }

    /// Changes state and converts GStreamer's return into a Swift result.
    @discardableResult
    public func setState(_ state: GstState) -> StateChangeResult {
        StateChangeResult(gst_element_set_state(pointer, state))
    }

    public func syncStateWithParent() -> Bool { gst_element_sync_state_with_parent(pointer) != 0 }

    public var bus: Bus? { gst_element_get_bus(pointer).map { Bus(owning: $0) } }

}

/// gst_element_set_state's answer.
public enum StateChangeResult: Equatable {
    case success, async, noPreroll, failure

    init(_ value: GstStateChangeReturn) {
        switch value {
        case GST_STATE_CHANGE_SUCCESS: self = .success
        case GST_STATE_CHANGE_ASYNC: self = .async
        case GST_STATE_CHANGE_NO_PREROLL: self = .noPreroll
        default: self = .failure
        }
    }
}
