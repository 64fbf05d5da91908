import Glibc
import LinuxSystem

/// `gstcam serve` in the `gstcam` executable: it becomes `gstcam-serve` (exec, same process, same arguments), the
/// executable that has the serving code and its libraries, so that no other command loads them.
package enum ServeLauncher: Command {
    package static let name = ServeHelp.name
    package static let summary = ServeHelp.summary
    package static let usage = ServeHelp.usage

    /// Where `gstcam-serve` is, from gstcam's own folder: beside it (a build folder), or in `lib/gstcam` of the
    /// prefix (scripts/install and the .deb put it there, as helper programs are kept out of `bin`).
    static let places = ["gstcam-serve", "../lib/gstcam/gstcam-serve"]

    package static func run(_ arguments: inout Arguments) async throws {
        let words = arguments.takeAll()
        let folder = try RunningExecutable.folder()
        let candidates = places.map { folder + "/" + $0 }
        guard let server = candidates.first(where: { (try? SystemCalls.access($0, X_OK)) != nil }) else {
            throw MissingServeExecutable(searched: candidates)
        }
        do {
            try SystemCalls.execute(server, arguments: [server, name] + words)
        } catch {
            throw MissingServeExecutable(searched: [server], failure: String(cString: strerror(error.code)))
        }
    }
}

/// `gstcam-serve` is not where gstcam looks for it, or cannot be run.
struct MissingServeExecutable: Error, CustomStringConvertible {
    let searched: [String]
    var failure: String?

    var description: String {
        if let failure, let path = searched.first {
            return "gstcam serve could not run \(path): \(failure). Install gstcam again (scripts/install, or the .deb)."
        }
        return "gstcam serve needs gstcam-serve, which is not installed (looked for \(searched.joined(separator: " and "))). "
            + "Install gstcam again (scripts/install, or the .deb), or build it: swift build --product gstcam-serve."
    }
}
