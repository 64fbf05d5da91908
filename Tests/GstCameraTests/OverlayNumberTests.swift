import Foundation
import Testing
@testable import Screen

/// The overlays' SVG numbers (`ControlBar.number`) are what `String(format: "%.2f")` writes, without NSString.
@Suite struct OverlayNumberTests {
    @Test func numbersHaveTwoDecimalsRoundedAsPrintfRoundsThem() {
        #expect(ControlBar.number(0) == "0.00")
        #expect(ControlBar.number(12.5) == "12.50")
        #expect(ControlBar.number(3.14159) == "3.14")
        #expect(ControlBar.number(-7.006) == "-7.01")
        #expect(ControlBar.number(1280) == "1280.00")
        // Exact ties go to the even neighbour, as printf does.
        #expect(ControlBar.number(0.125) == "0.12" && ControlBar.number(0.375) == "0.38")
        // Eighths are exact in binary: every one must match printf digit for digit, ties included.
        for eighths in -4000...40000 {
            let value = Double(eighths) / 8
            #expect(ControlBar.number(value) == String(format: "%.2f", value), "\(value)")
        }
    }

    /// Any other value (the layout's scaled coordinates) is within a hundredth of printf's, which it meets but for
    /// values a hair from a tie.
    @Test func otherValuesAgreeWithPrintf() {
        var generator = SystemRandomNumberGenerator()
        var differing = 0
        for _ in 0..<20_000 {
            let value = Double.random(in: -100...4000, using: &generator)
            let mine = ControlBar.number(value), printf = String(format: "%.2f", value)
            if mine != printf {
                differing += 1
                #expect(abs(Double(mine)! - Double(printf)!) <= 0.0100001, "\(value): \(mine) against \(printf)")
            }
        }
        #expect(differing <= 2)
    }
}
