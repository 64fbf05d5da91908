import CGStreamer

/// An owned reference to a GstPad, and its probes.
///
/// `@unchecked Sendable`: holds one strong reference and nothing mutable; GstPad linking and probe
/// calls are MT-safe in GStreamer.
public final class Pad: @unchecked Sendable {
    public let pointer: UnsafeMutablePointer<GstPad>

    init(owning pointer: UnsafeMutablePointer<GstPad>) { self.pointer = pointer }

    deinit { gst_object_unref(pointer) }

    /// The pad this one is linked to.
    public var peer: Pad? { gst_pad_get_peer(pointer).map { Pad(owning: $0) } }

    /// The element this pad belongs to.
    public var element: Element? {
        gst_pad_get_parent_element(pointer).map { Element(owning: $0) }
    }

    public func link(to sink: Pad) -> PadLinkResult { PadLinkResult(gst_pad_link(pointer, sink.pointer)) }

    @discardableResult
    public func unlink(from sink: Pad) -> Bool { gst_pad_unlink(pointer, sink.pointer) != 0 }

    /// The caps currently flowing through the pad, if negotiated.
    public var currentCaps: Caps? { gst_pad_get_current_caps(pointer).map { Caps(owning: $0) } }

    /// A new ghost pad named `name` for `target`, owned by the wrapper (add it to a bin with `Element.addPad`).
    public static func ghost(_ name: String, target: Pad) -> Pad? {
        guard let pad = gst_ghost_pad_new(name, target.pointer) else { return nil }
        gst_object_ref_sink(pad)
        return Pad(owning: pad)
    }

    /// Adds a probe whose handler runs on GStreamer's streaming thread; the handler must not block for long
    /// and must never throw into C. Returns the probe id for `removeProbe`.
    @discardableResult
    public func addProbe(_ mask: GstPadProbeType, _ handler: @escaping @Sendable (ProbeData) -> GstPadProbeReturn) -> UInt {
        let box = Unmanaged.passRetained(ProbeHandler(handler)).toOpaque()
        return UInt(gst_pad_add_probe(pointer, mask, { _, info, context in
            guard let info, let context else { return GST_PAD_PROBE_OK }
            let handler = Unmanaged<ProbeHandler>.fromOpaque(context).takeUnretainedValue()
            return handler.body(ProbeData(info: info))
        }, box, { context in
            guard let context else { return }
            Unmanaged<ProbeHandler>.fromOpaque(context).release()
        }))
    }

    public func removeProbe(_ id: UInt) { gst_pad_remove_probe(pointer, gulong(id)) }

    /// Whether what feeds this pad is live, from a latency query upstream; nil when nothing answers (nothing
    /// linked yet).
    public var upstreamIsLive: Bool? {
        guard let query = gst_query_new_latency() else { return nil }
        defer { gst_query_unref(query) }
        guard gst_pad_peer_query(pointer, query) != 0 else { return nil }
        var live: gboolean = 0
        gst_query_parse_latency(query, &live, nil, nil)
        return live != 0
    }
}

/// What a probe sees: the buffer or event passing, borrowed for the duration of the call.
public struct ProbeData {
    public let info: UnsafeMutablePointer<GstPadProbeInfo>

    var isBuffer: Bool { (info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue) != 0 }
    public var buffer: UnsafeMutablePointer<GstBuffer>? { isBuffer ? gstcam_probe_info_buffer(info) : nil }
    public var eventType: GstEventType? {
        guard (info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue) != 0,
              let event = gstcam_probe_info_event(info) else { return nil }
        return gstcam_event_type(event)
    }
}

private final class ProbeHandler: Sendable {
    let body: @Sendable (ProbeData) -> GstPadProbeReturn
    init(_ body: @escaping @Sendable (ProbeData) -> GstPadProbeReturn) { self.body = body }
}

public enum PadLinkResult: Equatable, Sendable {
    case ok, wrongHierarchy, wasLinked, wrongDirection, noFormat, noSchedule, refused

    init(_ value: GstPadLinkReturn) {
        switch value {
        case GST_PAD_LINK_OK: self = .ok
        case GST_PAD_LINK_WRONG_HIERARCHY: self = .wrongHierarchy
        case GST_PAD_LINK_WAS_LINKED: self = .wasLinked
        case GST_PAD_LINK_WRONG_DIRECTION: self = .wrongDirection
        case GST_PAD_LINK_NOFORMAT: self = .noFormat
        case GST_PAD_LINK_NOSCHED: self = .noSchedule
        default: self = .refused
        }
    }
}
