import Testing
@testable import Session

@Suite struct RecentFrameNumbersTests {
    @Test func aFrameIsFoundByItsTimeAmongTheLastEight() {
        var numbers = RecentFrameNumbers()
        for number in 1...20 { numbers.record(number, at: .milliseconds(number * 33)) }
        #expect(numbers.number(at: .milliseconds(20 * 33)) == 20)
        #expect(numbers.number(at: .milliseconds(13 * 33)) == 13)
        #expect(numbers.number(at: .milliseconds(12 * 33)) == nil, "older than the last eight")
        #expect(numbers.number(at: .milliseconds(5)) == nil)
        #expect(numbers.number(at: nil) == nil)
    }

    @Test func framesWithoutATimeAreNotRecorded() {
        var numbers = RecentFrameNumbers()
        numbers.record(1, at: .seconds(1))
        numbers.record(2, at: nil)
        #expect(numbers.number(at: .seconds(1)) == 1)
    }

    /// A camera switch may start the new camera's times over: the newest frame with a time wins.
    @Test func theNewestFrameWithATimeWins() {
        var numbers = RecentFrameNumbers()
        numbers.record(1, at: .seconds(1))
        numbers.record(2, at: .seconds(2))
        numbers.record(3, at: .seconds(1))
        #expect(numbers.number(at: .seconds(1)) == 3)
    }
}
