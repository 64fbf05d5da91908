import Foundation
import Glibc
import Testing
@testable import CameraErrors
@testable import MediaFiles

/// Where photos go (XDG Pictures folder, overrides) and what they are called.
@Suite struct GalleryLibraryTests {
    typealias F = PhotoFileFixtures

    // MARK: Folder

    @Test func defaultsToPicturesGstcamInHome() {
        let library = PhotoLibrary(environment: F.environment(["HOME": "/home/ana"]))
        #expect(library.directory == "/home/ana/Pictures/gstcam")
        #expect(library.directorySource == .homePictures)
    }

    @Test func usesXDGPicturesDirFromTheEnvironment() {
        let library = PhotoLibrary(environment: F.environment(["HOME": "/home/ana", "XDG_PICTURES_DIR": "/data/Bilder"]))
        #expect(library.directory == "/data/Bilder/gstcam")
        #expect(library.directorySource == .picturesVariable)
        let expanded = PhotoLibrary(environment: F.environment(["HOME": "/home/ana", "XDG_PICTURES_DIR": "$HOME/Fotos"]))
        #expect(expanded.directory == "/home/ana/Fotos/gstcam")
    }

    @Test func readsUserDirsFileInHomeConfig() throws {
        let home = F.makeDirectory("home")
        defer { F.removeTree(home) }
        try FileManager.default.createDirectory(atPath: home + "/.config", withIntermediateDirectories: true)
        let file = home + "/.config/user-dirs.dirs"
        try """
        # This file is written by xdg-user-dirs-update
        XDG_DESKTOP_DIR="$HOME/Desktop"
        XDG_PICTURES_DIR="$HOME/Bilder"
        XDG_VIDEOS_DIR="$HOME/Videos"
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let library = PhotoLibrary(environment: F.environment(["HOME": home]))
        #expect(library.directory == home + "/Bilder/gstcam")
        #expect(library.directorySource == .userDirectoriesFile(file))
    }

    @Test func userDirsFileFollowsXDGConfigHomeAndTakesAbsolutePathsWithEscapes() throws {
        let configuration = F.makeDirectory("config")
        defer { F.removeTree(configuration) }
        try #"  XDG_PICTURES_DIR = "/srv/photos/My \"Best\" Shots""#
            .write(toFile: configuration + "/user-dirs.dirs", atomically: true, encoding: .utf8)
        let library = PhotoLibrary(environment: F.environment(["HOME": "/home/ana", "XDG_CONFIG_HOME": configuration]))
        #expect(library.directory == #"/srv/photos/My "Best" Shots/gstcam"#)
    }

    @Test func relativeOrMalformedUserDirsLinesAreIgnored() {
        let text = """
        XDG_PICTURES_DIR="Pictures"
        XDG_PICTURES_DIR=$HOME/Unquoted
        XDG_PICTURES_DIRS="$HOME/Other"
        """
        #expect(PicturesDirectory.picturesLine(in: text, home: "/home/ana") == nil)
        #expect(PicturesDirectory.picturesLine(in: "XDG_PICTURES_DIR=\"$HOME/A\"\nXDG_PICTURES_DIR=\"$HOME/B\"",
                                               home: "/h") == "/h/B")
    }

    @Test func environmentVariableAndExplicitDirectoryOverrideXDG() {
        let variables = ["HOME": "/home/ana", "XDG_PICTURES_DIR": "/data/Bilder", "GSTCAM_PHOTO_DIR": "/mnt/card"]
        let fromVariable = PhotoLibrary(environment: F.environment(variables))
        #expect(fromVariable.directory == "/mnt/card")
        #expect(fromVariable.directorySource == .photoDirectoryVariable)
        let explicit = PhotoLibrary(directory: "/tmp/elsewhere", environment: F.environment(variables))
        #expect(explicit.directory == "/tmp/elsewhere")
        #expect(explicit.directorySource == .explicit)
    }

    @Test func createDirectoryMakesParentsAndRejectsFiles() throws {
        let root = F.makeDirectory()
        defer { F.removeTree(root) }
        let library = PhotoLibrary(directory: root + "/Pictures/gstcam", environment: F.environment(["HOME": root]))
        try library.createDirectory()
        var status = stat()
        #expect(stat(root + "/Pictures/gstcam", &status) == 0 && status.st_mode & S_IFMT == S_IFDIR)
        #expect(throws: CameraError.self) { try PhotoLibrary(directory: "/etc/passwd/gstcam").createDirectory() }
    }

    // MARK: Names

    @Test func namesCarryLocalTimeWithMilliseconds() {
        // 2026-11-30 13:32:05.123 UTC is 14:32:05.123 at UTC+1.
        let library = PhotoLibrary(directory: "/nonexistent/dir", environment: F.environment(["HOME": "/h"]))
        #expect(library.newPhotoPath(format: .jpeg) == "/nonexistent/dir/IMG_20261130_143205_123.jpg")
        #expect(library.newPhotoPath(format: .png) == "/nonexistent/dir/IMG_20261130_143205_123.png")
        let west = PhotoLibrary(directory: "/d", environment: F.environment(["HOME": "/h"], now: 1_796_045_525.999, utcOffset: -5 * 3600))
        #expect(west.newPhotoPath(format: .jpeg) == "/d/IMG_20261130_083205_999.jpg")
    }

    @Test func takenNamesGetSuffixesUnlessOverwriting() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let library = PhotoLibrary(directory: directory, environment: F.environment(["HOME": "/h"]))
        let plain = directory + "/IMG_20261130_143205_123.jpg"
        #expect(library.newPhotoPath(format: .jpeg) == plain)
        F.write([1], to: plain)
        #expect(library.newPhotoPath(format: .jpeg) == directory + "/IMG_20261130_143205_123_1.jpg")
        F.write([1], to: directory + "/IMG_20261130_143205_123_1.jpg")
        // A dangling symbolic link takes a name too: saving through it would write somewhere else.
        #expect(symlink("/nonexistent", directory + "/IMG_20261130_143205_123_2.jpg") == 0)
        #expect(library.newPhotoPath(format: .jpeg) == directory + "/IMG_20261130_143205_123_3.jpg")
        #expect(library.newPhotoPath(format: .jpeg, overwrite: true) == plain)
        // Another format is another name.
        #expect(library.newPhotoPath(format: .png) == directory + "/IMG_20261130_143205_123.png")
    }

    @Test func burstNamesShareTheStartTimeAndCountShots() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let library = PhotoLibrary(directory: directory, environment: F.environment(["HOME": "/h"]))
        let burst = library.newBurst(format: .jpeg)
        #expect(burst.path(forShot: 1) == directory + "/IMG_20261130_143205_123_0001.jpg")
        #expect(burst.path(forShot: 42) == directory + "/IMG_20261130_143205_123_0042.jpg")
        #expect(burst.path(forShot: 12345) == directory + "/IMG_20261130_143205_123_12345.jpg")
        F.write([1], to: directory + "/IMG_20261130_143205_123_0002.jpg")
        #expect(burst.path(forShot: 2) == directory + "/IMG_20261130_143205_123_0002_1.jpg")
    }

    @Test func formatsFollowExtensions() {
        #expect(PhotoFormat(path: "/a/b/cat.JPG") == .jpeg)
        #expect(PhotoFormat(path: "cat.jpeg") == .jpeg)
        #expect(PhotoFormat(path: "dir.png/cat.png") == .png)
        #expect(PhotoFormat(path: "dir.png/cat") == nil)
        #expect(PhotoFormat(path: ".png") == nil)
    }
}
