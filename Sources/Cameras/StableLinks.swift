import LinuxSystem
/// The udev links in /dev/v4l/by-id and /dev/v4l/by-path, by the node they point at.
struct StableLinks {
    var byID: [String: String] = [:]
    var byPath: [String: String] = [:]

    init(directories: [String]) {
        for directory in directories {
            for name in DirectoryListing.names(in: directory).sorted() {
                let link = directory + "/" + name
                guard let target = DirectoryListing.linkTarget(link) else { continue }
                if directory.hasSuffix("by-path") {
                    if byPath[target] == nil { byPath[target] = link }
                } else if byID[target] == nil {
                    byID[target] = link
                }
            }
        }
    }
}
