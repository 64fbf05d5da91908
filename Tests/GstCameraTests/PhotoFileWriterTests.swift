import Foundation
import Glibc
import Testing
@testable import CameraErrors
@testable import LinuxSystem
@testable import MediaFiles

/// Atomic saving: the final name holds a complete image or nothing, whatever goes wrong.
@Suite struct PhotoFileWriterTests {
    typealias F = PhotoFileFixtures

    /// A real JPEG to save, made once.
    static let sampleJPEG: [UInt8] = {
        let directory = F.makeDirectory("sample")
        defer { F.removeTree(directory) }
        try! F.makeJPEG(at: directory + "/sample.jpg")
        return F.bytes(directory + "/sample.jpg")
    }()

    private func expectError(_ expected: CameraError, _ body: () throws -> Void,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try body()
            Issue.record("expected \(expected), nothing was thrown", sourceLocation: sourceLocation)
        } catch {
            #expect(error as? CameraError == expected, sourceLocation: sourceLocation)
        }
    }

    @Test func savesBytesUnderTheFinalNameAndLeavesNothingElse() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let saved = try AtomicPhotoWriter.write(Self.sampleJPEG, to: directory + "/a.jpg", collision: .fail)
        #expect(saved == directory + "/a.jpg")
        #expect(F.bytes(saved) == Self.sampleJPEG)
        #expect(F.entries(directory) == ["a.jpg"])
    }

    @Test func temporaryFileIsHiddenBesideTheFinalNameUntilCommit() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let writer = try AtomicPhotoWriter(finalPath: directory + "/b.jpg", overwrite: false)
        #expect(writer.temporaryPath.hasPrefix(directory + "/.b.jpg.partial-\(getpid())-"))
        #expect(F.exists(writer.temporaryPath))
        #expect(!F.exists(directory + "/b.jpg"))
        let other = try AtomicPhotoWriter(finalPath: directory + "/b.jpg", overwrite: false)
        #expect(other.temporaryPath != writer.temporaryPath)
        other.discard()
        writer.discard()
        #expect(F.entries(directory).isEmpty)
    }

    @Test func gstreamerWritesTheTemporaryFileAndCommitRenamesIt() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let writer = try AtomicPhotoWriter(finalPath: directory + "/shot.jpg", overwrite: false)
        try F.encode("jpegenc", width: 640, height: 480, to: writer.temporaryPath)
        let saved = try writer.commit()
        #expect(saved == directory + "/shot.jpg")
        #expect(F.entries(directory) == ["shot.jpg"])
        #expect(JPEGReader.header(of: MemoryBytes(F.bytes(saved)))?.size == PixelSize(width: 640, height: 480))
    }

    // MARK: Refusing before any camera work

    @Test func missingDirectoryIsNotWritable() {
        let directory = F.makeDirectory()
        F.removeTree(directory)
        do {
            _ = try AtomicPhotoWriter(finalPath: directory + "/x.jpg", overwrite: false)
            Issue.record("no error")
        } catch {
            guard case let .outputNotWritable(path, reason) = error else { Issue.record("\(error)"); return }
            #expect(path == directory + "/x.jpg")
            #expect(reason.contains("\(directory) does not exist"))
        }
        #expect(!F.exists(directory))
    }

    @Test func pathUnderARegularFileIsNotWritable() {
        // As root, permission bits do not stop writes; a file where a directory should be does.
        for path in ["/etc/passwd/x.jpg", "/etc/passwd/sub/x.jpg"] {
            do {
                _ = try AtomicPhotoWriter(finalPath: path, overwrite: false)
                Issue.record("no error for \(path)")
            } catch {
                guard case let .outputNotWritable(errorPath, reason) = error else { Issue.record("\(error)"); continue }
                #expect(errorPath == path)
                #expect(reason.contains("/etc/passwd"))
                #expect(error.description.hasPrefix("Cannot write \(path): "))
            }
        }
    }

    @Test func readOnlyFileSystemIsNotWritable() throws {
        try F.withTinyFilesystem(size: "64k", options: "ro") { directory in
            do {
                _ = try AtomicPhotoWriter(finalPath: directory + "/x.jpg", overwrite: false)
                Issue.record("no error")
            } catch let error as CameraError {
                guard case let .outputNotWritable(_, reason) = error else { Issue.record("\(error)"); return }
                #expect(reason.contains("read-only"))
            }
        }
    }

    @Test func existingFileIsRefusedUnlessOverwriting() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let path = directory + "/c.jpg"
        F.write([9, 9, 9], to: path)
        expectError(.outputExists(path: path)) { _ = try AtomicPhotoWriter(finalPath: path, overwrite: false) }
        #expect(F.entries(directory) == ["c.jpg"])
        try AtomicPhotoWriter.write(Self.sampleJPEG, to: path, collision: .overwrite)
        #expect(F.bytes(path) == Self.sampleJPEG)
        #expect(F.entries(directory) == ["c.jpg"])
        // A dangling symbolic link is a taken name too: saving through it would write elsewhere.
        #expect(symlink("/nonexistent/target.jpg", directory + "/link.jpg") == 0)
        expectError(.outputExists(path: directory + "/link.jpg")) {
            _ = try AtomicPhotoWriter(finalPath: directory + "/link.jpg", overwrite: false)
        }
        #expect(!F.exists("/nonexistent/target.jpg"))
    }

    // MARK: Names taken while the photo was being taken

    @Test func fileAppearingBeforeCommitIsNotClobbered() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let path = directory + "/d.jpg"
        let writer = try AtomicPhotoWriter(finalPath: path, overwrite: false)
        F.write(Self.sampleJPEG, to: writer.temporaryPath)
        F.write([7], to: path)
        expectError(.outputExists(path: path)) { try writer.commit() }
        #expect(F.bytes(path) == [7])
        #expect(F.entries(directory) == ["d.jpg"])
    }

    @Test func addSuffixSavesBesideAFileThatAppeared() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let path = directory + "/e.jpg"
        let writer = try AtomicPhotoWriter(finalPath: path, collision: .addSuffix)
        F.write(Self.sampleJPEG, to: writer.temporaryPath)
        F.write([7], to: path)
        let saved = try writer.commit()
        #expect(saved == directory + "/e_1.jpg")
        #expect(F.bytes(saved) == Self.sampleJPEG)
        #expect(F.entries(directory) == ["e.jpg", "e_1.jpg"])
    }

    @Test func concurrentSavesUnderOneNameAllSurvive() async throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let path = directory + "/same.jpg"
        let jpeg = Self.sampleJPEG
        let saved = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<24 {
                group.addTask { try AtomicPhotoWriter.write(jpeg, to: path, collision: .addSuffix) }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(saved).count == 24)
        #expect(F.entries(directory).count == 24)
        #expect(saved.allSatisfy { F.bytes($0) == jpeg })
    }

    // MARK: Failures while writing

    @Test func diskFullWhileWritingBytesLeavesNothing() throws {
        try F.withTinyFilesystem(size: "64k") { directory in
            let big = Self.sampleJPEG + [UInt8](repeating: 0, count: 256 * 1024) + [0xFF, 0xD9]
            expectError(.writeFailed(path: directory + "/big.jpg", errno: ENOSPC)) {
                try AtomicPhotoWriter.write(big, to: directory + "/big.jpg", collision: .fail)
            }
            #expect(F.entries(directory).isEmpty)
            // …and the file system is usable again afterwards: a small photo fits.
            try AtomicPhotoWriter.write(Self.sampleJPEG, to: directory + "/small.jpg", collision: .fail)
            #expect(F.entries(directory) == ["small.jpg"])
        }
    }

    @Test func diskFullDuringGStreamerEncodeIsReportedAndLeavesNothing() throws {
        try F.withTinyFilesystem(size: "64k") { directory in
            let path = directory + "/noise.jpg"
            let writer = try AtomicPhotoWriter(finalPath: path, overwrite: false)
            // Snow at 1280×720 and full quality encodes to far more than 64 KiB.
            let result = try F.run("/usr/bin/gst-launch-1.0", [
                "-q", "videotestsrc", "num-buffers=1", "pattern=snow", "!", "video/x-raw,width=1280,height=720",
                "!", "jpegenc", "quality=100", "!", "filesink", "location=\(writer.temporaryPath)",
            ])
            #expect(result.status != 0)
            expectError(.writeFailed(path: path, errno: ENOSPC)) { try writer.commit() }
            #expect(F.entries(directory).isEmpty)
            #expect(CameraError.writeFailed(path: path, errno: ENOSPC).description.contains("No space left on device"))
        }
    }

    @Test func fileSizeLimitTruncatingTheEncoderLeavesNothing() throws {
        // Without a tiny file system: the encoder process is limited to 8 KiB files (RLIMIT_FSIZE).
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let path = directory + "/limited.jpg"
        let writer = try AtomicPhotoWriter(finalPath: path, overwrite: false)
        let result = try F.run("/bin/sh", ["-c", """
            ulimit -f 8; exec gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=snow ! \
            video/x-raw,width=640,height=480 ! jpegenc quality=100 ! filesink location=\(writer.temporaryPath)
            """])
        #expect(result.status != 0)
        let written = F.bytes(writer.temporaryPath).count
        #expect(written > 0 && written <= 8192)
        expectError(.writeFailed(path: path, errno: ENODATA)) { try writer.commit() }
        #expect(F.entries(directory).isEmpty)
    }

    @Test func truncatedImagesAreNeverRenamedIntoPlace() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        try F.makePNG(at: directory + "/source.png")
        let png = F.bytes(directory + "/source.png")
        F.removeTree(directory + "/source.png")
        let cases: [(String, [UInt8])] = [
            ("half.jpg", Array(Self.sampleJPEG.prefix(Self.sampleJPEG.count / 2))),
            ("lastbyte.jpg", Array(Self.sampleJPEG.dropLast())),
            ("empty.jpg", []),
            ("half.png", Array(png.prefix(png.count / 2))),
            ("noend.png", Array(png.dropLast(12))),
            ("empty.bin", []),
        ]
        for (name, bytes) in cases {
            let writer = try AtomicPhotoWriter(finalPath: directory + "/" + name, overwrite: false)
            F.write(bytes, to: writer.temporaryPath)
            expectError(.writeFailed(path: directory + "/" + name, errno: ENODATA)) { try writer.commit() }
        }
        #expect(F.entries(directory).isEmpty)
        // A PNG saved under a .png name passes the same check.
        try AtomicPhotoWriter.write(png, to: directory + "/whole.png", collision: .fail)
        #expect(F.entries(directory) == ["whole.png"])
    }

    @Test func directoryRemovedBeforeCommitIsAWriteFailure() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        let writer = try AtomicPhotoWriter(finalPath: directory + "/gone.jpg", overwrite: false)
        F.write(Self.sampleJPEG, to: writer.temporaryPath)
        F.removeTree(directory)
        expectError(.writeFailed(path: directory + "/gone.jpg", errno: ENOENT)) { try writer.commit() }
        #expect(!F.exists(directory))
    }

    /// Saving into a folder clears what killed captures left there (once per folder and process).
    @Test func staleTemporaryFilesOfDeadProcessesAreRemoved() throws {
        let directory = F.makeDirectory()
        defer { F.removeTree(directory) }
        // A pid that certainly is not running: a child that has exited and been reaped.
        let child = try F.run("/bin/sh", ["-c", "echo $$"])
        let deadPid = try #require(Int32(child.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        let stale = directory + "/.IMG_1.jpg.partial-\(deadPid)-3"
        F.write([1, 2], to: stale)
        F.write([1], to: directory + "/.notes.partial-x")
        let mine = try AtomicPhotoWriter(finalPath: directory + "/IMG_2.jpg", overwrite: false)
        #expect(F.entries(directory).sorted() == [".notes.partial-x", FilePath.lastComponent(of: mine.temporaryPath)].sorted())
        // A running writer's file is never taken for a leftover.
        #expect(AtomicPhotoWriter.removeStaleTemporaryFiles(in: directory) == [])
    }
}
