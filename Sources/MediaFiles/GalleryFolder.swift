import CameraErrors
import Glibc
import LinuxSystem

/// What the photo and video galleries share about their folders.
enum GalleryFolder {
    /// The names in `directory`, hidden ones left out. A folder that does not exist yet is an empty gallery; one that
    /// cannot be listed cannot be used as the output folder either (photos and videos are saved where they are listed).
    static func visibleNames(in directory: String) throws(CameraError) -> [String] {
        do {
            return try SystemCalls.directoryEntries(directory).filter { !$0.hasPrefix(".") }
        } catch where error.code == ENOENT {
            return []
        } catch {
            throw .outputNotWritable(path: directory, reason: "it cannot be listed: " + CameraError.errnoText(error.code))
        }
    }
}
