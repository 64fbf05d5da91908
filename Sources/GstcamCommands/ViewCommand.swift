import FoundationEssentials
import GstCamera
import LinuxSystem
import Reports
import Screen

/// `gstcam view`: the photo viewer on the gallery, alone — and the gallery's picker: Enter prints the chosen photo's
/// path, as `capture --preview` prints the photo it took.
enum ViewCommand: Command {
    static let name = "view"
    static let summary = "Show the gallery's photos in a window; Enter prints the chosen one's path"
    static let usage = """
    USAGE: gstcam view [FILE | --last] [--dir DIR] [--sink ELEMENT] [--json]

    Opens a window showing the gallery's photos one at a time, scaled to the window, newest first, starting with
    FILE (a photo; its folder is the gallery shown unless --dir is given) or the newest photo (--last, the default).
    A status line shows the photo's name, its place in the gallery and its date. Recorded videos (MP4, WebM: the
    Videos folder, or DIR / FILE's folder) are shown among them by date, as their first frame marked "▶ Video".

    KEYS AND MOUSE:
      ← / →, wheel, click    Previous (newer) / next (older) photo; a click on the left or right half of the window.
      Home / End             The newest / the oldest photo.
      space                  On a video: play it in the window (no sound); space or Esc stops it. On a photo: next.
      Delete                 Move the photo to the desktop trash (freedesktop.org trash: restore it from the file
                             manager, `gio trash --restore` or trash-restore) and show the next one.
      Enter                  Print the photo's (or video's) path (with --json its gallery record) and exit 0.
      Esc, q                 Close; exit status 2 (nothing chosen), as the picker of capture --preview.

    The gallery folder is DIR if given, else $\(PhotoLibrary.directoryVariable), else the XDG Pictures folder plus
    /gstcam (see gstcam gallery --help). Exits 1 when it has no photos or no window can be opened.

    OPTIONS:
      --last           Start with the newest photo (the default).
      --dir DIR        Show the photos of DIR.
      --sink ELEMENT   The video sink of the window (default: as gstcam preview chooses: waylandsink, xvimagesink,
                       ximagesink or glimagesink, the first that opens the display).
      --json           Print the chosen photo as a JSON object (docs/gallery.md) instead of its path.
      -h, --help       Show this help.
    """

    static func run(_ arguments: inout Arguments) async throws {
        let directory = try arguments.option("--dir")
        let last = arguments.flag("--last")
        let sinkName = try arguments.option("--sink")
        let json = arguments.flag("--json")
        let files = try arguments.positionals()
        if files.count > 1 { throw UsageError("one FILE at most (got \(files.count))") }
        if last, !files.isEmpty { throw UsageError("give FILE or --last, not both") }
        if directory?.isEmpty == true { throw UsageError("--dir needs a directory") }
        if sinkName == "terminal" || sinkName == "none" { throw UsageError("--sink \(sinkName!): the viewer needs a window sink") }

        var start: ViewerItem?
        if let file = files.first {
            if let photo = GalleryPhoto(path: file) {
                start = ViewerItem(photo)
            } else if let video = GalleryVideo(path: file) {
                start = ViewerItem(video)
            } else {
                let exists = FileManager.default.fileExists(atPath: file)
                Standard.error.write("gstcam: \(FilePath.absolute(file)) \(exists ? "is not a JPEG or PNG photo (or an MP4 or WebM video)" : "does not exist"). "
                    + "List the gallery's photos with `gstcam gallery`.\n")
                throw ExitRequest(status: .failure)
            }
        }
        let folder = directory ?? start.map { FilePath.directory(of: $0.path) }
        let library = PhotoLibrary(directory: folder)
        let photos = try library.photos()
        var items = ViewerItem.merged(photos: photos, videos: (try? (folder.map { VideoLibrary(directory: $0) } ?? VideoLibrary()).videos()) ?? [])
        var index = 0
        if let start {
            if let found = items.firstIndex(where: { $0.path == start.path }) {
                index = found
            } else {
                items.insert(start, at: 0)  // a file the listing leaves out (hidden, another folder): shown first
            }
        }
        guard !items.isEmpty else {
            Standard.error.write("gstcam: no photos in \(library.directory) (\(library.directorySource.explanation)). "
                + "Take one with `gstcam capture`, or choose another folder with --dir.\n")
            throw ExitRequest(status: .failure)
        }
        let sink = try PhotoViewer.windowSink(sinkName, environment: ProcessEnvironment.current())
        let viewer = try PhotoViewer.open(items: items, showing: index, sink: sink, trash: Trash(environment: library.environment))
        let interrupt = Interrupt { viewer.close() }
        let ending = await viewer.run()
        if interrupt.didFire { throw ExitRequest(status: .interrupted) }
        guard case let .chosen(path) = ending else { throw ExitRequest(status: .cancelled) }
        if json, let photo = photos.first(where: { $0.path == path }) {
            print(JSONOutput.line(GalleryRecord(library, [photo]).photos[0]))
        } else if json {
            print(JSONOutput.line(["path": path, "kind": "video"]))
        } else {
            print(path)
        }
    }
}
