import Foundation
import Testing

/// The terminal view's last-photo thumbnail: half blocks in the top right corner after a photo, the picture left
/// where it was.
@Suite(.serialized) struct TerminalThumbnailTests {
    @Test func aPhotoPutsItsThumbnailInTheTopRightCorner() throws {
        // /dev/video22 (cyan band along the top) in a 100×30 tmux: the picture is 77 columns wide, centred (12…88).
        let terminal = try RecoveryTerminal(["--device", "/dev/video22", "--width", "640", "--height", "480", "--sink", "terminal"])
        defer { terminal.remove() }
        func firstRow(colours: Bool = false) throws -> String {
            String(try terminal.screen(colours: colours).split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        }
        func blocks(_ row: String) -> Int { row.filter { $0 == "▀" }.count }
        #expect(try terminal.wait { try blocks(firstRow()) >= 70 }, "\((try? terminal.screen()) ?? "")")
        let before = try firstRow()
        #expect(before.hasSuffix(" ") || blocks(before) < 80, "the picture already reaches the corner: \(before)")
        _ = try terminal.tmux("send-keys", "-t", "0", "Space")
        // 16 columns at the right edge: the picture's 77 plus the 12 beyond it.
        #expect(try terminal.wait(5) { try blocks(firstRow()) >= blocks(before) + 10 }, "no thumbnail: \((try? firstRow()) ?? "")")
        // The thumbnail's top row is the photo's cyan band; the picture did not move (its first cell is where it was).
        let coloured = try firstRow(colours: true)
        let last = coloured.components(separatedBy: "38;2;").last ?? ""
        let rgb = last.split(separator: ";").prefix(3).map { Int($0.prefix { $0.isNumber }) ?? -999 }
        #expect(rgb.count == 3 && abs(rgb[0] - 0x1e) < 40 && abs(rgb[1] - 0xc8) < 40 && abs(rgb[2] - 0xe0) < 40, "corner colour \(rgb)")
        func pictureStart(_ row: String) -> Int? { row.firstIndex(of: "▀").map { row.distance(from: row.startIndex, to: $0) } }
        #expect(try pictureStart(firstRow()) == pictureStart(before))
        _ = try terminal.tmux("send-keys", "-t", "0", "q")
        #expect(terminal.wait(5) { terminal.file("status.txt") != nil })
    }
}
