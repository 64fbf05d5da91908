import Synchronization
import LinuxSystem

/// A camera that was plugged in or unplugged, as `CameraMonitor` reports it.
public enum CameraChange: Sendable, Equatable {
    case added(Camera)
    case removed(Camera)
}

/// A long-lived list of this machine's cameras that follows plug and unplug (the idea of GNOME's camera
/// DeviceProvider), with the changes as an AsyncStream.
///
/// How it notices: it lists `/dev` once a `interval` (names only) and probes (VIDIOC_QUERYCAP, formats) only
/// the `video<N>` names it has not seen before, plus those it could not use last time (udev sets a new node's
/// group and mode just after creating it, so "permission denied" may be over a moment later). Why not
/// GstDeviceMonitor or inotify: both learn of devices from the kernel (udev events, inotify on devtmpfs), so
/// neither sees the virtual camera, whose nodes exist only through an LD_PRELOAD'ed `readdir`/`stat`; a listing
/// sees kernel and virtual nodes alike, needs no udev (containers, the vivid rig), and costs one `readdir` of
/// `/dev` a second. The price: a change is seen up to `interval` late, and a node unplugged and replugged under
/// the same name between two listings is not reported (a session on it fails and is restarted by its owner).
public final class CameraMonitor: Sendable {
    public static let defaultInterval = Duration.seconds(1)

    /// How much of each camera the list holds (`CameraDetail`).
    public let detail: CameraDetail

    private struct State {
        /// What each node name was found to be, kept so known nodes are not opened again.
        var probes: [String: NodeProbe] = [:]
        var cameras: [Camera] = []
        var observers: [Int: AsyncStream<CameraChange>.Continuation] = [:]
        var nextObserverID = 0
        var watcher: Task<Void, Never>?
    }

    private let state = Mutex(State())
    private let deviceDirectory: String
    private let linkDirectories: [String]

    /// Lists the cameras now, then follows `/dev` every `interval` until `stop()` (or until it is released).
    /// `detail`: `.identity` for a list that only names cameras and tells them apart (no formats or controls read).
    public convenience init(interval: Duration = CameraMonitor.defaultInterval, detail: CameraDetail = .full) {
        self.init(deviceDirectory: "/dev", linkDirectories: ["/dev/v4l/by-id", "/dev/v4l/by-path"], interval: interval,
                  detail: detail)
    }

    init(deviceDirectory: String, linkDirectories: [String], interval: Duration?, detail: CameraDetail = .full) {
        self.deviceDirectory = deviceDirectory
        self.linkDirectories = linkDirectories
        self.detail = detail
        rescan()
        guard let interval else { return }
        let watcher = Task.detached { [weak self] in
            // Ends when the task is cancelled (stop()): the ticks stream then finishes.
            for await _ in Ticker.every(interval) {
                guard let self, !Task.isCancelled else { return }
                self.rescan()
            }
        }
        state.withLock { $0.watcher = watcher }
    }

    deinit { stop() }

    /// The cameras as of the last listing, sorted by node number (indexes as `gstcam devices` gives them).
    public var cameras: [Camera] { state.withLock { $0.cameras } }

    /// Cameras plugged in and unplugged from now on, in order. Each call makes a new stream; it ends at `stop()`.
    public func changes() -> AsyncStream<CameraChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: CameraChange.self)
        let id: Int? = state.withLock { state in
            guard state.watcher?.isCancelled != true else { return nil }
            state.nextObserverID += 1
            state.observers[state.nextObserverID] = continuation
            return state.nextObserverID
        }
        guard let id else { continuation.finish(); return stream }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.observers.removeValue(forKey: id) } }
        return stream
    }

    /// Stops following `/dev` and ends the change streams.
    public func stop() {
        let observers = state.withLock { state in
            state.watcher?.cancel()
            defer { state.observers = [:] }
            return Array(state.observers.values)
        }
        for observer in observers { observer.finish() }
    }

    /// Lists `/dev` now and reports what changed since the last listing.
    func rescan() {
        let names = CameraDiscovery.videoNodeNames(in: DirectoryListing.names(in: deviceDirectory))
        let known = state.withLock { $0.probes }
        var probes: [String: NodeProbe] = [:]
        var probedAgain = false
        for (number, name) in names {
            if let probe = known[name], probe.problem == nil {
                probes[name] = probe
                continue
            }
            probedAgain = true
            if let probe = NodeProbe(path: deviceDirectory + "/" + name, number: number, detail: detail) { probes[name] = probe }
        }
        guard probedAgain || Set(probes.keys) != Set(known.keys) else { return }
        let ordered = names.compactMap { probes[$0.name] }
        let cameras = CameraDiscovery.cameras(from: ordered, linkDirectories: linkDirectories)
        let (changes, observers) = state.withLock { state in
            let changes = Self.changes(from: state.cameras, to: cameras)
            state.probes = probes
            state.cameras = cameras
            return (changes, Array(state.observers.values))
        }
        for change in changes {
            for observer in observers { observer.yield(change) }
        }
    }

    /// Removals, then additions, by device node; a node that became a different camera (or became usable or
    /// unusable) is one of each. Positions in the list do not count.
    static func changes(from old: [Camera], to new: [Camera]) -> [CameraChange] {
        func unindexed(_ camera: Camera) -> Camera {
            var camera = camera
            camera.index = 0
            return camera
        }
        let oldByPath = Dictionary(old.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let newByPath = Dictionary(new.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [CameraChange] = []
        for camera in old {
            if let now = newByPath[camera.path], unindexed(now) == unindexed(camera) { continue }
            changes.append(.removed(camera))
        }
        for camera in new {
            if let before = oldByPath[camera.path], unindexed(before) == unindexed(camera) { continue }
            changes.append(.added(camera))
        }
        return changes
    }
}

extension Camera {
    /// Whether `other` is this camera again (after an unplug, or a driver reconnecting): the same udev stable id
    /// when both have one, otherwise the same node with the same name and bus. A camera replugged into another
    /// port keeps its by-id link but may get another node.
    public func isSameCamera(as other: Camera) -> Bool {
        if let id = stableID, let otherID = other.stableID { return id == otherID }
        return path == other.path && name == other.name && busInfo == other.busInfo
    }
}
