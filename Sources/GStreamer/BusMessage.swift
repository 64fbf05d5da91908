import CGStreamer

/// The bus messages the session acts on, as Swift values copied out of the GstMessage.
public enum BusMessage: Sendable, Equatable {
    /// An element failed.
    case error(BusError)
    case warning(source: String, message: String)
    case endOfStream(source: String)
    case application(name: String)
    case other

    /// Copies `message` out. `scopes` are elements (bins) to place an error's source in: `BusError.scope` is the
    /// index of the first that is the source or holds it, e.g. a branch whose errors its owner handles.
    init(_ message: UnsafeMutablePointer<GstMessage>, scopes: [Element] = []) {
        let source = gstcam_message_source(message).flatMap { takeGString(gstcam_object_dup_name($0)) } ?? "?"
        switch gstcam_message_type(message) {
        case GST_MESSAGE_ERROR:
            var error: UnsafeMutablePointer<GError>?
            var debug: UnsafeMutablePointer<gchar>?
            gst_message_parse_error(message, &error, &debug)
            let origin = gstcam_message_source(message)
            self = .error(BusError(
                source: source,
                origin: origin.map { UInt(bitPattern: $0) } ?? 0,
                fromDetachedElement: origin.map(Self.isDetached) ?? false,
                scope: origin.flatMap { source in scopes.firstIndex { Self.isWithin(source, $0) } },
                domain: error.flatMap { g_quark_to_string(gstcam_error_domain($0)) }.map { String(cString: $0) } ?? "",
                code: error.map { gstcam_error_code($0) } ?? 0,
                message: error.flatMap { $0.pointee.message }.map { String(cString: $0) } ?? "unknown error",
                debug: takeGString(debug)))
            if let error { g_error_free(error) }
        case GST_MESSAGE_WARNING:
            var error: UnsafeMutablePointer<GError>?
            var debug: UnsafeMutablePointer<gchar>?
            gst_message_parse_warning(message, &error, &debug)
            g_free(debug)
            self = .warning(source: source, message: error.flatMap { $0.pointee.message }.map { String(cString: $0) } ?? "")
            if let error { g_error_free(error) }
        case GST_MESSAGE_EOS:
            self = .endOfStream(source: source)
        case GST_MESSAGE_APPLICATION:
            let name = gst_message_get_structure(message).flatMap { gst_structure_get_name($0) }.map { String(cString: $0) }
            self = .application(name: name ?? "")
        default:
            self = .other
        }
    }
}

extension BusMessage {
    /// Whether `object` is `scope` or inside it (at any depth: autovideosink's child inside a branch's bin).
    static func isWithin(_ object: UnsafeMutablePointer<GstObject>, _ scope: Element) -> Bool {
        let ancestor = UnsafeMutableRawPointer(scope.pointer).assumingMemoryBound(to: GstObject.self)
        return object == ancestor || gst_object_has_as_ancestor(object, ancestor) != 0
    }

    /// An element that is in no bin (it was removed, e.g. a camera source replaced by a switch) and is not a
    /// pipeline itself. The message holds a reference to it, so asking is safe.
    static func isDetached(_ object: UnsafeMutablePointer<GstObject>) -> Bool {
        guard let parent = gst_object_get_parent(object) else {
            return g_type_check_instance_is_a(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GTypeInstance.self),
                                              gst_pipeline_get_type()) == 0
        }
        gst_object_unref(parent)
        return false
    }
}

/// An error message's content.
public struct BusError: Sendable, Equatable {
    /// The element's name.
    public let source: String
    /// The element's address, to tell two elements of one name apart (a switch's old and new `source`).
    public let origin: UInt
    /// Posted by an element no longer in the pipeline: a late word from something already replaced.
    public let fromDetachedElement: Bool
    /// Which of the scopes the message was read with holds the source (see `BusMessage.init`), if any.
    public let scope: Int?
    /// GStreamer's error domain (quark name) and code.
    public let domain: String
    public let code: Int32
    public let message: String
    public let debug: String?
}
