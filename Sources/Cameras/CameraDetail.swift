/// How much a camera list reads of each camera.
public enum CameraDetail: Sendable, Equatable {
    /// Everything `Camera` holds: its formats with their sizes and rates, and its controls (`features`). Each camera
    /// is asked a few hundred questions, and a UVC camera answers some of them over USB.
    case full
    /// What the node is (VIDIOC_QUERYCAP): path, name, driver, bus, sibling nodes, stable links, and whether this user
    /// may open it (`problem`). `formats` and `features` stay empty and `isInfrared` goes by the name only. Enough to
    /// name cameras, tell them apart and follow plugging; a screen showing one camera keeps such a list of the
    /// others (issue 13: reading all of them took 5 ms of a preview's start on twelve virtual cameras).
    case identity
}
