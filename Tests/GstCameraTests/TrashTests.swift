import Foundation
import Glibc
import Testing
@testable import CameraErrors
@testable import MediaFiles

/// The desktop trash (freedesktop.org Trash spec 1.0), checked with trash-cli, a reader of the spec nobody here
/// wrote: what Trash writes must be listed with its original path and be restorable.
@Suite struct TrashTests {
    /// A private home (XDG_DATA_HOME inside it) with a photo folder holding `names`.
    private func home(_ names: [String]) throws -> (folder: String, trash: Trash, environment: [String: String]) {
        let folder = try makeTemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        for name in names { _ = FileManager.default.createFile(atPath: folder + "/photos/" + name, contents: Data(name.utf8)) }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder
        environment["XDG_DATA_HOME"] = folder + "/data"
        return (folder, Trash(environment: PhotoEnvironment(variables: environment)), environment)
    }

    @Test func trashedFilesAreListedAndRestoredByTrashCLI() throws {
        let (folder, trash, environment) = try home(["IMG 1.jpg"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = folder + "/photos/IMG 1.jpg"
        let first = try trash.moveToTrash(photo)
        #expect(!FileManager.default.fileExists(atPath: photo))
        #expect(first.trashedPath == folder + "/data/Trash/files/IMG 1.jpg")
        #expect(FileManager.default.contents(atPath: first.trashedPath) == Data("IMG 1.jpg".utf8))
        let info = try String(contentsOfFile: first.infoPath, encoding: .utf8)
        let encodedFolder = folder.replacingOccurrences(of: " ", with: "%20")
        #expect(info.hasPrefix("[Trash Info]\nPath=\(encodedFolder)/photos/IMG%201.jpg\nDeletionDate="), "\(info)")
        let date = try #require(info.split(separator: "\n").last?.split(separator: "=").last)
        #expect(date.count == 19 && date.dropFirst(10).first == "T" && date.allSatisfy { $0.isNumber || $0 == "-" || $0 == ":" || $0 == "T" },
                "DeletionDate=\(date)")

        // A second file of the same name gets a name of its own; the first is not replaced.
        _ = FileManager.default.createFile(atPath: photo, contents: Data("second".utf8))
        let second = try trash.moveToTrash(photo)
        #expect(second.trashedPath == folder + "/data/Trash/files/IMG 1.2.jpg")
        #expect(FileManager.default.contents(atPath: first.trashedPath) == Data("IMG 1.jpg".utf8))

        let listed = try runProcess("/usr/bin/trash-list", [], environment: environment)
        #expect(listed.status == 0, "\(listed.error)")
        let lines = listed.output.split(separator: "\n").filter { $0.contains(folder) }
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasSuffix(" \(photo)") }, "trash-list: \(listed.output)")

        // trash-restore offers the files trashed from under the current folder; "0" picks the first one listed.
        let restore = Process()
        restore.executableURL = URL(fileURLWithPath: "/usr/bin/trash-restore")
        restore.environment = environment
        restore.currentDirectoryURL = URL(fileURLWithPath: folder + "/photos")
        let input = Pipe()
        restore.standardInput = input
        restore.standardOutput = FileHandle.nullDevice
        try restore.run()
        input.fileHandleForWriting.write(Data("0\n".utf8))
        try input.fileHandleForWriting.close()
        restore.waitUntilExit()
        #expect(restore.terminationStatus == 0)
        let back = FileManager.default.contents(atPath: photo)
        #expect(back == Data("IMG 1.jpg".utf8) || back == Data("second".utf8), "restored: \(String(describing: back))")
    }

    @Test func aMissingFileIsRefusedWithItsPath() throws {
        let (folder, trash, _) = try home([])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: CameraError.trashFailed(path: folder + "/photos/gone.jpg", reason: "it does not exist (any more)", fix: "Nothing was changed.")) {
            try trash.moveToTrash(folder + "/photos/gone.jpg")
        }
        // A trash folder that cannot be made: the error names it and says what to do.
        _ = FileManager.default.createFile(atPath: folder + "/photos/IMG.jpg", contents: Data())
        _ = FileManager.default.createFile(atPath: folder + "/data", contents: Data())
        do {
            try trash.moveToTrash(folder + "/photos/IMG.jpg")
            Issue.record("a file where the trash's parent should be was not noticed")
        } catch {
            #expect("\(error)".contains("\(folder)/photos/IMG.jpg was not moved to the trash"), "\(error)")
            #expect(FileManager.default.fileExists(atPath: folder + "/photos/IMG.jpg"))
        }
    }

    /// /dev/shm is a tmpfs of its own: a file there goes to /dev/shm/.Trash-UID, never copied to the home trash.
    @Test func aFileOnAnotherFilesystemGoesToThatFilesystemsTrash() throws {
        let (folder, trash, environment) = try home([])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var shm = stat(), tmp = stat()
        try #require(stat("/dev/shm", &shm) == 0 && stat(folder, &tmp) == 0 && shm.st_dev != tmp.st_dev && access("/dev/shm", W_OK) == 0,
                     "/dev/shm is not a writable filesystem apart from the temporary folder")
        let topTrash = "/dev/shm/.Trash-\(getuid())"
        let madeHere = !FileManager.default.fileExists(atPath: topTrash)
        let name = "gstcam-trash-test-\(UUID().uuidString).jpg"
        _ = FileManager.default.createFile(atPath: "/dev/shm/" + name, contents: Data("x".utf8))
        defer {
            if madeHere { try? FileManager.default.removeItem(atPath: topTrash) } else {
                try? FileManager.default.removeItem(atPath: topTrash + "/files/" + name)
                try? FileManager.default.removeItem(atPath: topTrash + "/info/" + name + ".trashinfo")
            }
        }
        let trashed = try trash.moveToTrash("/dev/shm/" + name)
        #expect(trashed.trashedPath == topTrash + "/files/" + name)
        // Relative to the filesystem's top directory, as the spec asks of top-directory trashes.
        #expect(try String(contentsOfFile: trashed.infoPath, encoding: .utf8).contains("\nPath=\(name)\n"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/data/Trash/files/" + name))
        let listed = try runProcess("/usr/bin/trash-list", [], environment: environment)
        #expect(listed.output.contains(" /dev/shm/" + name), "trash-list: \(listed.output) \(listed.error)")
    }
}
