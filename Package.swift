// swift-tools-version:6.0
// Tools 6.0: every Swift target builds in the Swift 6 language mode (strict concurrency).
import PackageDescription

/// Where Package.swift is: the linker needs the startup order file's full path, whatever folder swift build runs in.
let packageFolder = String(#filePath.dropLast("/Package.swift".count))

/// How both executables are linked. A cold photo touches under 1 MB of the 16 MB of code linked in (our code, the
/// Swift runtime, Foundation), but scattered: the kernel maps code in 64 KB chunks around each fault, so gstcam used
/// to hold 9–11 MB of its own code in memory. lld lays the functions a photo, a preview and the control commands
/// run (packaging/startup-order.txt, made by scripts/startup-order) side by side at the start of the code, the code
/// that no symbol names just before them (packaging/link/local-functions.ld), and packs its relocations (DT_RELR,
/// glibc 2.36: 1.8 MB of relocation records become 15 KB). The executables export none of
/// their symbols (swiftc links them with --export-dynamic: 3 600 names that every library loaded after them was
/// looked up in first, and 290 KB of symbol tables held in memory); nothing looks a symbol up in them. The C++
/// runtime the Swift runtime needs is linked in from GCC's archives too (packaging/link/libstdc++.so says how),
/// not mapped whole. docs/benchmarks.md has the figures.
let executableLinking: [LinkerSetting] = [.unsafeFlags([
    "-L", "\(packageFolder)/packaging/link",
    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
    "-Xlinker", "--symbol-ordering-file=\(packageFolder)/packaging/startup-order.txt",
    "-Xlinker", "--no-warn-symbol-ordering",
    "-Xlinker", "-T", "-Xlinker", "\(packageFolder)/packaging/link/local-functions.ld",
    "-Xlinker", "--no-export-dynamic",
])]

let package = Package(
    name: "GstCamera",
    products: [
        .library(name: "GstCamera", targets: ["GstCamera"]),
        .executable(name: "gstcam", targets: ["gstcam"]),
        // `gstcam serve`, which gstcam runs (exec): only it links the serving libraries (GstcamCommands/ServeLauncher).
        .executable(name: "gstcam-serve", targets: ["gstcam-serve"]),
        // The virtual V4L2 camera is an LD_PRELOAD library, so it must be a shared object.
        .library(name: "VirtualCamera", type: .dynamic, targets: ["VirtualCamera"]),
    ],
    targets: [
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: "gstreamer-app-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev", "libglib2.0-dev"])]
        ),
        // The library, in layers: each target has one job and imports only targets listed before it (SwiftPM
        // refuses cycles and a target sees only the `public` API of the ones it depends on).
        // docs/architecture.md draws the arrows and says which threads run where.

        // Linux calls with one policy: errno as `Errno`, EINTR retried, owned descriptors, paths, sockets, ticks.
        .target(name: "LinuxSystem"),
        // `CameraError`: every failure a person may see, with what happened, to which device/file, and the fix.
        .target(name: "CameraErrors"),
        // GStreamer's C API as Swift: elements, pads, caps, the bus as a message stream, appsink, tee branches.
        .target(name: "GStreamer", dependencies: ["CGStreamer", "LinuxSystem", "CameraErrors"]),
        // The pipeline description files in pipelines/: where they are, parameters, the names the code relies on.
        .target(name: "PipelineFiles", dependencies: ["GStreamer", "LinuxSystem", "CameraErrors"]),
        // The kernel's video interface: one open device node, its ioctls, formats, raw controls, who holds it.
        .target(name: "V4L2", dependencies: ["CGStreamer", "LinuxSystem", "CameraErrors"]),
        // Camera controls in people's terms: names, values, torch, flash, focus, exposure, optical zoom.
        .target(name: "Controls", dependencies: ["V4L2", "LinuxSystem", "CameraErrors"]),
        // Which cameras exist: discovery, hot-plug, selectors, stable ids, modes (format x size x rate).
        .target(name: "Cameras", dependencies: ["Controls", "V4L2", "LinuxSystem", "CameraErrors"]),
        // Photo and video files: atomic writes, EXIF, names, the gallery in the Pictures folder.
        .target(name: "MediaFiles", dependencies: ["LinuxSystem", "CameraErrors", "CZlib"]),
        // zlib's CRC-32 for the PNG chunks MediaFiles writes (libz is in every gstcam process already: libgsttag).
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // The camera session: one pipeline as a state machine; preview frames, photos, zoom, switching cameras.
        .target(
            name: "Session",
            dependencies: ["Cameras", "Controls", "V4L2", "MediaFiles", "PipelineFiles", "GStreamer",
                           "LinuxSystem", "CameraErrors", "CGStreamer"]
        ),
        // What gstcam prints for scripts: one Encodable record per kind (photo, mode, figures, event, version).
        .target(name: "Reports", dependencies: ["Session", "Cameras", "MediaFiles", "V4L2"]),
        // The camera screen: window and terminal views, keys and clicks, the operator, the remote-control socket.
        .target(
            name: "Screen",
            dependencies: ["Reports", "Session", "Cameras", "Controls", "MediaFiles", "PipelineFiles", "GStreamer",
                           "LinuxSystem", "CameraErrors", "CGStreamer", "CZbar", "CCairo"]
        ),
        // libzbar: where a scanned code is in the frame (the zbar element says only what it reads). Its header only:
        // the shim opens the library when the first code is outlined (no pkgConfig, so nothing links it).
        .systemLibrary(name: "CZbar", providers: [.apt(["libzbar-dev"])]),
        // cairo and Pango: the window's control bar, status line and error view as pixels. cairo's header only: the
        // shim opens the libraries when the window first draws (no pkgConfig, so nothing links them).
        .systemLibrary(name: "CCairo", providers: [.apt(["libcairo2-dev"])]),
        // gstcam serve: RTSP through GStreamer's own server library (gst-rtsp-server), HTTP through libsoup 3.
        .systemLibrary(name: "CRTSPServer", pkgConfig: "gstreamer-rtsp-server-1.0", providers: [.apt(["libgstrtspserver-1.0-dev"])]),
        .systemLibrary(name: "CSoup", pkgConfig: "libsoup-3.0", providers: [.apt(["libsoup-3.0-dev"])]),
        // The web page's WebRTC live view: webrtcbin's signals and session descriptions.
        .systemLibrary(name: "CWebRTC", pkgConfig: "gstreamer-webrtc-1.0", providers: [.apt(["libgstreamer-plugins-bad1.0-dev"])]),
        // Serving a running session: RTSP with one shared H.264 encode, the web camera page and its JSON API.
        .target(
            name: "Serve",
            dependencies: ["Screen", "Reports", "Session", "Controls", "MediaFiles", "PipelineFiles", "GStreamer", "LinuxSystem", "CameraErrors",
                           "CGStreamer", "CRTSPServer", "CSoup", "CWebRTC"]
        ),
        // What users import: re-exports the public API of the layers (discovery, session, frames, photos,
        // controls, errors) so that one `import GstCamera` is enough.
        .target(
            name: "GstCamera",
            dependencies: ["Session", "Cameras", "Controls", "V4L2", "MediaFiles", "GStreamer", "CameraErrors", "CGStreamer"]
        ),
        // The command line: every command, option and help text, shared by the two executables below.
        .target(name: "GstcamCommands", dependencies: ["GstCamera", "Screen", "Reports", "LinuxSystem"]),
        .executableTarget(name: "gstcam", dependencies: ["GstcamCommands"], linkerSettings: executableLinking),
        .executableTarget(
            name: "gstcam-serve", dependencies: ["GstcamCommands", "Serve", "GstCamera", "Screen", "Reports", "LinuxSystem"],
            linkerSettings: executableLinking
        ),
        .target(
            name: "VirtualCamera",
            cSettings: [.define("_GNU_SOURCE")],
            linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread"), .linkedLibrary("jpeg"), .linkedLibrary("m")]
        ),
        .testTarget(
            name: "GstCameraTests",
            dependencies: ["GstCamera", "Screen", "Serve", "Reports", "Session", "Cameras", "Controls", "V4L2", "MediaFiles", "PipelineFiles",
                           "GStreamer", "LinuxSystem", "CameraErrors", "CGStreamer"]
        ),
    ]
)

// Each function in a section of its own, so that the linker can place it by packaging/startup-order.txt (the
// Swift runtime and Foundation are built that way already).
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-function-sections"])]
}
