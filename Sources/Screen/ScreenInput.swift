import Controls
/// What the person at the camera screen did: a window's navigation events, or keys typed in a terminal.
enum ScreenInput: Sendable, Equatable {
    /// A primary mouse button press at a point of the picture (0…1 from the left and from the top).
    case click(NormalizedPoint)
    /// Mouse wheel: positive steps scroll up (zoom in), negative down.
    case scroll(steps: Double, at: NormalizedPoint)
    /// A key, by its X keysym name: "space", "Return", "Escape", "plus", "q", …
    case key(String)
    /// The window is gone (closed by the user, or its sink failed): the screen should end.
    case windowClosed(reason: String)
}
