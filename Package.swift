// swift-tools-version:6.0
// Tools 6.0: every Swift target builds in the Swift 6 language mode (strict concurrency).
import PackageDescription

let package = Package(
    name: "GstCamera",
    products: [
        .library(name: "GstCamera", targets: ["GstCamera"]),
        .executable(name: "gstcam", targets: ["gstcam"]),
        // The virtual V4L2 camera is an LD_PRELOAD library, so it must be a shared object.
        .library(name: "VirtualCamera", type: .dynamic, targets: ["VirtualCamera"]),
    ],
    targets: [
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: "gstreamer-app-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev", "libglib2.0-dev"])]
        ),
        // gstcam serve: RTSP through GStreamer's own server library, HTTP and WebSockets through libsoup 3.
        .systemLibrary(
            name: "CRTSPServer",
            pkgConfig: "gstreamer-rtsp-server-1.0",
            providers: [.apt(["libgstrtspserver-1.0-dev"])]
        ),
        .systemLibrary(
            name: "CSoup",
            pkgConfig: "libsoup-3.0",
            providers: [.apt(["libsoup-3.0-dev"])]
        ),
        .target(
            name: "GstCamera",
            dependencies: ["CGStreamer", "CRTSPServer", "CSoup"]
        ),
        .executableTarget(
            name: "gstcam",
            dependencies: ["GstCamera"]
        ),
        .target(
            name: "VirtualCamera",
            cSettings: [.define("_GNU_SOURCE")],
            linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread"), .linkedLibrary("jpeg")]
        ),
        .testTarget(
            name: "GstCameraTests",
            dependencies: ["GstCamera", "CGStreamer"]
        ),
    ]
)
