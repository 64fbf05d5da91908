/// The running program's own file, for finding what is installed beside it (pipelines/, gstcam-serve).
public enum RunningExecutable {
    /// The folder that holds it: /proc/self/exe, with every symbolic link resolved, so a link to gstcam (in
    /// ~/bin, say) still finds the prefix gstcam was installed into.
    public static func folder() throws(Errno) -> String {
        FilePath.directory(of: try SystemCalls.readLink("/proc/self/exe"))
    }
}
