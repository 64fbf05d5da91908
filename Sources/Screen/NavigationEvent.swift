import CGStreamer
import Controls
import V4L2

/// Reads the navigation events video sinks send upstream (GstNavigation) as screen input.
enum NavigationEvent {
    /// X reports the wheel as buttons 4 (up) and 5 (down); ximagesink forwards them as button presses.
    static let wheelUp: Int32 = 4
    static let wheelDown: Int32 = 5

    /// The input an upstream event carries, with pointer positions divided by the picture's size; nil for
    /// anything else (releases, motion, other events).
    static func input(from event: UnsafeMutablePointer<GstEvent>, width: Int, height: Int) -> ScreenInput? {
        guard gstcam_event_type(event) == GST_EVENT_NAVIGATION else { return nil }
        func point(_ x: Double, _ y: Double) -> NormalizedPoint {
            NormalizedPoint(x: min(1, max(0, x / Double(max(1, width)))), y: min(1, max(0, y / Double(max(1, height)))))
        }
        switch gst_navigation_event_get_type(event) {
        case GST_NAVIGATION_EVENT_MOUSE_BUTTON_PRESS:
            var button: Int32 = 0
            var x = 0.0, y = 0.0
            guard gst_navigation_event_parse_mouse_button_event(event, &button, &x, &y) != 0 else { return nil }
            switch button {
            case 1: return .click(point(x, y))
            case wheelUp: return .scroll(steps: 1, at: point(x, y))
            case wheelDown: return .scroll(steps: -1, at: point(x, y))
            default: return nil
            }
        case GST_NAVIGATION_EVENT_MOUSE_SCROLL:
            var x = 0.0, y = 0.0, deltaX = 0.0, deltaY = 0.0
            guard gst_navigation_event_parse_mouse_scroll_event(event, &x, &y, &deltaX, &deltaY) != 0, deltaY != 0 else { return nil }
            return .scroll(steps: deltaY, at: point(x, y))
        case GST_NAVIGATION_EVENT_KEY_PRESS:
            var key: UnsafePointer<gchar>?
            guard gst_navigation_event_parse_key_event(event, &key) != 0, let key else { return nil }
            // X sinks name the key's unshifted symbol ("t" for shift+t) and give Shift as a modifier.
            var state = GST_NAVIGATION_MODIFIER_NONE
            let name = String(cString: key)
            if gst_navigation_event_parse_modifier_state(event, &state) != 0, state.rawValue & GST_NAVIGATION_MODIFIER_SHIFT_MASK.rawValue != 0,
               name.count == 1, name.first?.isLowercase == true {
                return .key(name.uppercased())
            }
            return .key(name)
        default:
            return nil
        }
    }

    /// A primary-button press (`pressed`) or release and where, divided by the picture's size: what the control
    /// bar hit-tests (a press on the bar holds a button down, the release clicks it). nil for anything else.
    static func primaryButton(from event: UnsafeMutablePointer<GstEvent>, width: Int, height: Int) -> (pressed: Bool, point: NormalizedPoint)? {
        guard gstcam_event_type(event) == GST_EVENT_NAVIGATION else { return nil }
        let type = gst_navigation_event_get_type(event)
        guard type == GST_NAVIGATION_EVENT_MOUSE_BUTTON_PRESS || type == GST_NAVIGATION_EVENT_MOUSE_BUTTON_RELEASE else { return nil }
        var button: Int32 = 0
        var x = 0.0, y = 0.0
        guard gst_navigation_event_parse_mouse_button_event(event, &button, &x, &y) != 0, button == 1 else { return nil }
        let point = NormalizedPoint(x: min(1, max(0, x / Double(max(1, width)))), y: min(1, max(0, y / Double(max(1, height)))))
        return (type == GST_NAVIGATION_EVENT_MOUSE_BUTTON_PRESS, point)
    }
}
