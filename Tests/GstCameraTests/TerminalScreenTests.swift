import Foundation
import Testing
import GstCamera

/// `gstcam preview --sink terminal` in a real terminal: a detached tmux session of its own (private server).
@Suite(.serialized) struct TerminalScreenTests {
    /// A tmux server and session running `gstcam preview --sink terminal` between two `stty -a` snapshots.
    final class TerminalSession: TmuxSession {
        init(_ arguments: [String]) throws {
            let folder = try makeTemporaryFolder()
            // status.txt appears whole (written, then renamed): a test waiting for it once read it empty (CI).
            let command = "stty -a > \(folder)/before.txt; \(gstcamBinary) preview \(arguments.joined(separator: " ")); "
                + "status=$?; stty -a > \(folder)/after.txt; echo $status > \(folder)/status.part; mv \(folder)/status.part \(folder)/status.txt; sleep 30"
            super.init(folder: folder, serverPrefix: "gstcam-test", command: command,
                       variables: ["GSTCAM_PHOTO_DIR": folder, "XDG_RUNTIME_DIR": folder])
        }
    }

    @Test func drawsFramesAndTheStatusLineKeysWorkAndQRestoresTheTerminal() throws {
        let terminal = try TerminalSession(["--pipeline", "test-pattern", "--sink", "terminal"])
        defer { terminal.remove() }
        #expect(try terminal.wait { try terminal.screen().contains("Test pattern · 640×480") }, "\((try? terminal.screen()) ?? "")")
        // The colour bars as 24-bit colour half blocks: white, yellow, cyan, …
        let coloured = try terminal.screen(colours: true)
        #expect(coloured.contains("\u{1B}[38;2;255;255;255;48;2;255;255;255m▀") || coloured.contains("38;2;255;255;255m"), "\(coloured.prefix(400))")
        #expect(coloured.contains("38;2;255;255;0") && coloured.contains("38;2;0;255;255"))
        #expect(try terminal.screen().contains("▀▀▀▀▀▀▀▀▀▀"))
        _ = try terminal.tmux("send-keys", "-t", "0", "+")
        #expect(try terminal.wait(3) { try terminal.screen().contains("Zoom 1.25×") })
        _ = try terminal.tmux("send-keys", "-t", "0", "Space")
        #expect(terminal.wait(3) { ((try? FileManager.default.contentsOfDirectory(atPath: terminal.folder)) ?? []).contains { $0.hasPrefix("IMG_") } })
        #expect(try terminal.wait(3) { try terminal.screen().contains("Saved IMG_") })
        _ = try terminal.tmux("send-keys", "-t", "0", "q")
        #expect(terminal.wait(3) { terminal.file("status.txt") != nil })
        #expect(terminal.file("status.txt") == "0\n")
        #expect(terminal.file("before.txt") == terminal.file("after.txt"))
        // Back on the main screen with the cursor shown: the picture is gone.
        #expect(try !terminal.screen().contains("▀"))
    }

    @Test func ctrlCRestoresTheTerminal() throws {
        let terminal = try TerminalSession(["--pipeline", "test-pattern", "--sink", "terminal"])
        defer { terminal.remove() }
        #expect(try terminal.wait { try terminal.screen().contains("Test pattern · 640×480") })
        _ = try terminal.tmux("send-keys", "-t", "0", "C-c")
        #expect(terminal.wait(3) { terminal.file("status.txt") != nil })
        #expect(terminal.file("status.txt") == "130\n")
        #expect(terminal.file("before.txt") == terminal.file("after.txt"))
    }

    @Test func aFailingCameraRestoresTheTerminalAndSaysWhy() throws {
        let terminal = try TerminalSession(["--device", "/dev/video99", "--sink", "terminal"])
        defer { terminal.remove() }
        #expect(terminal.wait(5) { terminal.file("status.txt") != nil })
        #expect(terminal.file("status.txt") == "1\n")
        #expect(terminal.file("before.txt") == terminal.file("after.txt"))
        #expect(try terminal.screen().contains("/dev/video99"))
    }
}
