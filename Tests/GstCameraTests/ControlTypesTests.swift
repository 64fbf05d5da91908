import Foundation
import Testing
@testable import CameraErrors
@testable import Controls
@testable import V4L2

/// Controls of every V4L2 type (issue 10 item 2) and the control messages of issue 16 item 4, first without a
/// device, then as a user runs gstcam against the virtual camera's vivid profile, which has vivid's test
/// controls (one of each type); values are read back with v4l2-ctl.
@Suite struct ControlTypesUnitTests {
    static func int64Control(value: Int64) -> CameraControl {
        var control = ControlsUnitTests.control("Integer 64 Bits", type: .integer64, range: Int64.min...Int64.max)
        control.value = .integer(value)
        return control
    }

    @Test func percentageOfAFullRangeInt64ControlDoesNotOverflow() {
        #expect(Self.int64Control(value: 0).percentage == 50)
        #expect(Self.int64Control(value: .min).percentage == 0)
        #expect(Self.int64Control(value: .max).percentage == 100)
    }

    @Test func percentagesOfAFullRangeInt64ControlReachBothEnds() throws {
        let control = Self.int64Control(value: 0)
        #expect(try ControlValueParser.parse("100%", for: control) == .integer(.max))
        #expect(try ControlValueParser.parse("0%", for: control) == .integer(.min))
        #expect(try ControlValueParser.parse("-9223372036854775808", for: control) == .integer(.min))
        #expect(throws: CameraError.controlOutOfRange(name: "integer_64_bits", value: "9223372036854775808",
                                                      minimum: .min, maximum: .max, step: 1)) {
            try ControlValueParser.parse("9223372036854775808", for: control)
        }
    }

    @Test func aBitmaskTakesOnlyTheBitsOfItsMaskAndSaysWhichAreNot() throws {
        let bitmask = ControlsUnitTests.control("Bitmask", type: .bitmask, range: 0...0x8040_2010)
        #expect(try ControlValueParser.parse("0x80400010", for: bitmask) == .integer(0x8040_0010))
        #expect(throws: CameraError.controlBadValue(name: "bitmask", value: "0x0000000f",
                                                    expected: "bits of the mask 0x80402010 only (0x0000000f is not in it)")) {
            try ControlValueParser.parse("0x0000000f", for: bitmask)
        }
    }

    @Test func aNumberInsideTheRangeThatIsNoMenuItemNamesTheItems() throws {
        let exposure = ControlsUnitTests.control("Auto Exposure", type: .menu, range: 0...3)
        var withHoles = exposure
        withHoles.menu = [ControlMenuItem(index: 1, name: "Manual Mode"), ControlMenuItem(index: 3, name: "Aperture Priority Mode")]
        #expect(throws: CameraError.controlNotMenuItem(name: "auto_exposure", value: "2",
                                                       items: ["1 Manual Mode", "3 Aperture Priority Mode"])) {
            try ControlValueParser.parse("2", for: withHoles)
        }
        let message = CameraError.controlNotMenuItem(name: "auto_exposure", value: "2",
                                                     items: ["1 Manual Mode", "3 Aperture Priority Mode"]).description
        #expect(message == "2 is not one of the items of auto_exposure's menu, which are: 1 Manual Mode, 3 Aperture Priority Mode. "
            + "Give an item's number or name.")
        #expect(!message.contains("out of range"))
    }

    @Test func controlCharactersAreEscaped() {
        #expect(PrintableText.escaping("bri\u{1B}[31mght") == "bri\\e[31mght")
        #expect(PrintableText.escaping("a\tb\nc\r\u{7}\u{7F}\u{9B}") == "a\\tb\\nc\\r\\x07\\x7F\\u{009B}")
        #expect(PrintableText.escaping("Focus, Absolute µ") == "Focus, Absolute µ")
    }

    @Test func arraysTakeOneNumberForAllOrOneForEachElement() throws {
        var matrix = ControlsUnitTests.control("U16 8x16 Matrix", type: .unsigned16, range: 16...8192)
        matrix.dimensions = [2, 3]
        #expect(try ControlValueParser.parse("20", for: matrix) == .array(ControlArray(dimensions: [2, 3], elements: [20, 20, 20, 20, 20, 20])))
        #expect(try ControlValueParser.parse("16 17 18, 19 20 21", for: matrix)
            == .array(ControlArray(dimensions: [2, 3], elements: [16, 17, 18, 19, 20, 21])))
        #expect(throws: CameraError.controlOutOfRange(name: "u16_8x16_matrix", value: "9000", minimum: 16, maximum: 8192, step: 1)) {
            try ControlValueParser.parse("9000", for: matrix)
        }
        #expect(throws: (any Error).self) { try ControlValueParser.parse("1 2", for: matrix) }
        let bytes = ControlArray(dimensions: [3], elements: [1, 258, 65535]).payload(type: .unsigned16, byteCount: 6)
        #expect(bytes == [1, 0, 2, 1, 255, 255])
        #expect(ControlArray(payload: bytes, type: .unsigned16, dimensions: [3])?.elements == [1, 258, 65535])
    }
}

/// gstcam against vivid's test controls on the virtual camera (a private state per test).
@Suite struct ControlTypesCLITests {
    static func vivid() throws -> VirtualCameras.Isolated {
        var cameras = try VirtualCameras.Isolated()
        cameras.devices = "/dev/video0=vivid;/dev/video2=uvc"
        return cameras
    }

    @Test func listingShowsEveryTypeWithoutCrashing() throws {
        let cameras = try Self.vivid()
        defer { cameras.remove() }
        let list = try cameras.gstcam("controls", "--device", "/dev/video0")
        #expect(list.status == 0, "\(list.standardError)")
        let lines = list.standardOutput.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        for expected in [
            "integer_64_bits int64 -9223372036854775808…9223372036854775807 default 0 value 0 (50%)",
            "integer_32_bits int -2147483648…2147483647 default 0 value 0 (50%)",
            "bitmask bitmask mask 0x80402010 default 0x80002000 value 0x80002000",
            "integer_menu intmenu 1…8 default 4 value 4 (5)",
            "u16_8x16_matrix u16 [8][16] 16…8192 default 24 value 24 24 24 24 24 24 24 24 … (128 elements)",
            "u32_1_element_array u32 [1] 16…131072 default 24 value 24",
            "button button",
            "disconnect button",
        ] {
            #expect(lines.contains(expected), "missing \(expected) in:\n\(list.standardOutput)")
        }
        #expect(list.standardOutput.contains("value \"  \"\n"), "the string's two spaces, quoted: \(list.standardOutput)")
    }

    @Test func jsonShowsArraysNestedByTheirDimensions() throws {
        let cameras = try Self.vivid()
        defer { cameras.remove() }
        let list = try cameras.gstcam("controls", "--device", "/dev/video0", "--json")
        #expect(list.status == 0, "\(list.standardError)")
        let controls = try #require(try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
        func control(_ name: String) -> [String: Any]? { controls.first { $0["name"] as? String == name } }
        #expect(control("integer_64_bits")?["minimum"] as? Int64 == .min)
        #expect(control("integer_64_bits")?["maximum"] as? Int64 == .max)
        #expect(control("string")?["value"] as? String == "  ")
        #expect(control("u16_8x16_matrix")?["dimensions"] as? [Int] == [8, 16])
        let rows = try #require(control("u16_8x16_matrix")?["value"] as? [[Int]])
        #expect(rows.count == 8 && rows.allSatisfy { $0 == Array(repeating: 24, count: 16) })
        #expect(control("button")?["value"] is NSNull)
        #expect(control("integer_menu")?["menu"] != nil)
    }

    @Test func setAndGetEveryWritableTypeReadBackByV4L2Ctl() throws {
        let cameras = try Self.vivid()
        defer { cameras.remove() }
        let set = try cameras.gstcam("set", "-d", "/dev/video0", "integer_64_bits=-9223372036854775808", "string=abcd",
                                     "bitmask=0x80400010", "integer_menu=42", "u8_2x3x4x5_array=20", "u32_1_element_array=100000",
                                     "button=1", "integer_32_bits=2147483647")
        #expect(set.status == 0, "\(set.standardError)")
        #expect(set.standardOutput.contains("integer_64_bits=-9223372036854775808\n"), "\(set.standardOutput)")
        #expect(set.standardOutput.contains("string=\"abcd\"\n"), "\(set.standardOutput)")
        #expect(set.standardOutput.contains("integer_menu=8 (42)  (asked 42)\n"), "\(set.standardOutput)")
        #expect(set.standardOutput.contains("button: pressed\n"), "\(set.standardOutput)")
        let read = try cameras.v4l2ctl("-d", "/dev/video0", "-C",
                                       "integer_64_bits,string,bitmask,integer_menu,integer_32_bits,u32_1_element_array")
        #expect(read.standardOutput.contains("integer_64_bits: -9223372036854775808"), "\(read.standardOutput)")
        #expect(read.standardOutput.contains("string: 'abcd'"), "\(read.standardOutput)")
        #expect(read.standardOutput.contains("bitmask: \(Int32(bitPattern: 0x8040_0010))"), "\(read.standardOutput)")
        #expect(read.standardOutput.contains("integer_menu: 8 (42 0x2a)"), "\(read.standardOutput)")
        #expect(read.standardOutput.contains("u32_1_element_array:     100000"), "\(read.standardOutput)")
        #expect(read.standardOutput.contains("integer_32_bits: 2147483647"), "\(read.standardOutput)")
        let get = try cameras.gstcam("get", "-d", "/dev/video0", "integer_64_bits", "string", "bitmask", "integer_menu", "u32_1_element_array")
        #expect(get.standardOutput == """
            integer_64_bits=-9223372036854775808
            string="abcd"
            bitmask=0x80400010
            integer_menu=8 (42)
            u32_1_element_array=100000

            """, "\(get.standardOutput)")
        let array = try cameras.gstcam("get", "-d", "/dev/video0", "u8_2x3x4x5_array")
        #expect(array.standardOutput == "u8_2x3x4x5_array=" + Array(repeating: "20", count: 120).joined(separator: " ") + "\n")
    }

    @Test func areaIsAWidthAndAHeight() throws {
        let cameras = try Self.vivid()
        defer { cameras.remove() }
        #expect(try cameras.gstcam("get", "-d", "/dev/video0", "area").standardOutput == "area=1000x2000\n")
        let set = try cameras.gstcam("set", "-d", "/dev/video0", "area=640x480")
        #expect(set.status == 0 && set.standardOutput == "area=640x480\n", "\(set.standardOutput)\(set.standardError)")
        #expect(try cameras.v4l2ctl("-d", "/dev/video0", "-C", "area").standardOutput == "area: 640x480\n")
        let empty = try cameras.gstcam("set", "-d", "/dev/video0", "area=0x20")
        #expect(empty.status == 1 && empty.standardError.contains("WIDTHxHEIGHT, both above 0"), "\(empty.standardError)")
    }

    @Test func valuesOutsideTheRangeAreRefusedWithTheRange() throws {
        let cameras = try Self.vivid()
        defer { cameras.remove() }
        let tooBig = try cameras.gstcam("set", "-d", "/dev/video0", "integer_64_bits=9223372036854775808")
        #expect(tooBig.status == 1)
        #expect(tooBig.standardError.contains("out of range for integer_64_bits: use -9223372036854775808…9223372036854775807"),
                "\(tooBig.standardError)")
        let element = try cameras.gstcam("set", "-d", "/dev/video0", "u16_8x16_matrix=9000")
        #expect(element.status == 1 && element.standardError.contains("use 16…8192"), "\(element.standardError)")
        let short = try cameras.gstcam("set", "-d", "/dev/video0", "string=a")
        #expect(short.status == 1 && short.standardError.contains("text of 2…4 bytes"), "\(short.standardError)")
        let hole = try cameras.gstcam("set", "-d", "/dev/video0", "menu=2")
        #expect(hole.status == 1)
        #expect(hole.standardError.contains("2 is not one of the items of menu's menu, which are: 1 Menu Item 1, 3 Menu Item 3, 4 Menu Item 4"),
                "\(hole.standardError)")
        let readOnly = try cameras.gstcam("set", "-d", "/dev/video0", "read_only_integer_32_bits=3")
        #expect(readOnly.status == 1 && readOnly.standardError.contains("read-only"), "\(readOnly.standardError)")
        let unchanged = try cameras.v4l2ctl("-d", "/dev/video0", "-C", "integer_64_bits,string,menu")
        #expect(unchanged.standardOutput == "integer_64_bits: 0\nstring: '  '\nmenu: 3 (Menu Item 3)\n", "\(unchanged.standardOutput)")
    }

    @Test func autoExposureTwoIsNotAnItemOfItsMenu() throws {
        let cameras = try Self.vivid()
        defer { cameras.remove() }
        let result = try cameras.gstcam("set", "-d", "/dev/video2", "auto_exposure=2")
        #expect(result.status == 1)
        #expect(result.standardError == "gstcam: 2 is not one of the items of auto_exposure's menu, which are: "
            + "1 Manual Mode, 3 Aperture Priority Mode. Give an item's number or name.\n", "\(result.standardError)")
        #expect(!result.standardError.contains("out of range"))
    }

    @Test func controlCharactersInANameOrValueAreNeverPrintedRaw() throws {
        let cameras = try Self.vivid()
        defer { cameras.remove() }
        let get = try cameras.gstcam("get", "-d", "/dev/video2", "bri\u{1B}[31mght")
        #expect(get.status == 1)
        #expect(get.standardError.contains("no control named \"bri\\e[31mght\""), "\(get.standardError)")
        #expect(!get.standardError.contains("\u{1B}"))
        let set = try cameras.gstcam("set", "-d", "/dev/video2", "bri\u{1B}[2Jght=3")
        #expect(set.status == 1 && !set.standardError.contains("\u{1B}"), "\(set.standardError)")
        let usage = try cameras.gstcam("set", "-d", "/dev/video2", "bright\u{7}ness")
        #expect(usage.status == 64 && !usage.standardError.contains("\u{7}") && usage.standardError.contains("\\x07"),
                "\(usage.standardError)")
        let value = try cameras.gstcam("set", "-d", "/dev/video0", "string=a\u{1B}b")
        #expect(value.status == 0, "\(value.standardError)")
        #expect(value.standardOutput == "string=\"a\\eb\"\n", "\(value.standardOutput)")
        let bad = try cameras.gstcam("set", "-d", "/dev/video2", "brightness=\u{1B}[2J")
        #expect(bad.status == 1 && !bad.standardError.contains("\u{1B}"), "\(bad.standardError)")
    }
}
