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
        // The colour bars as 24-bit colour half blocks: white, yellow, cyan, … (within YUV rounding: the camera's
        // frames are converted to RGB for the terminal).
        let coloured = try terminal.screen(colours: true)
        let colours = Self.foregroundColours(coloured)
        func first(_ red: Int, _ green: Int, _ blue: Int) -> Int? {
            colours.firstIndex { abs($0.0 - red) <= 8 && abs($0.1 - green) <= 8 && abs($0.2 - blue) <= 8 }
        }
        let (white, yellow, cyan) = (first(255, 255, 255), first(255, 255, 0), first(0, 255, 255))
        #expect(white != nil && yellow != nil && cyan != nil, "\(coloured.prefix(400))")
        #expect(white ?? .max < yellow ?? .max && yellow ?? .max < cyan ?? .max, "the bars in their order, left to right")
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

    /// The 24-bit foreground colours (`ESC[38;2;R;G;Bm`) on a screen.
    static func foregroundColours(_ screen: String) -> [(Int, Int, Int)] {
        screen.components(separatedBy: "38;2;").dropFirst().compactMap { rest in
            let numbers = rest.prefix { $0.isNumber || $0 == ";" }.split(separator: ";").prefix(3).compactMap { Int($0) }
            return numbers.count == 3 ? (numbers[0], numbers[1], numbers[2]) : nil
        }
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
