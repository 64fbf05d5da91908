import FoundationEssentials
import Glibc
import LinuxSystem

/// What the photo library reads from the outside world — environment variables, the clock and the local
/// time zone — gathered in one value so tests can give it a fake HOME, a fixed time and a fixed offset.
public struct PhotoEnvironment: Sendable {
    /// Environment variables (HOME, XDG_PICTURES_DIR, XDG_CONFIG_HOME, GSTCAM_PHOTO_DIR…).
    public var variables: [String: String]
    /// The current time; photo names are made from it.
    public var now: @Sendable () -> Date
    /// Seconds east of UTC of local time at a given moment (daylight saving time depends on the date).
    public var utcOffset: @Sendable (Date) -> Int

    public init(
        variables: [String: String],
        now: @escaping @Sendable () -> Date = { Date() },
        utcOffset: @escaping @Sendable (Date) -> Int = PhotoEnvironment.systemUTCOffset
    ) {
        self.variables = variables
        self.now = now
        self.utcOffset = utcOffset
    }

    /// This process's environment, clock and time zone (TZ / /etc/localtime).
    public static var current: PhotoEnvironment {
        PhotoEnvironment(variables: ProcessEnvironment.current())
    }

    /// The local time zone's offset from UTC at `date`, as localtime(3) computes it.
    @Sendable public static func systemUTCOffset(at date: Date) -> Int {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        guard localtime_r(&seconds, &fields) != nil else { return 0 }
        return fields.tm_gmtoff
    }

    /// $HOME, or the home directory in the password database when HOME is unset (e.g. under some services).
    var homeDirectory: String {
        if let home = variables["HOME"], !home.isEmpty { return home }
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        if getpwuid_r(getuid(), &entry, &buffer, buffer.count, &result) == 0, let result, let directory = result.pointee.pw_dir {
            return String(cString: directory)
        }
        return "/"
    }

    /// A set, non-empty variable.
    func value(_ name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }
}

/// A moment as local wall-clock fields, with milliseconds and the UTC offset it was computed with.
struct LocalTime: Equatable {
    var year, month, day, hour, minute, second, millisecond: Int
    var utcOffset: Int

    init(_ date: Date, utcOffset: Int) {
        // Via whole microseconds: binary doubles hold .123 as .12299…, which must still name millisecond 123.
        let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let milliseconds = microseconds >= 0 ? microseconds / 1000 : (microseconds - 999) / 1000
        let whole = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        var seconds = time_t(whole) + time_t(utcOffset)
        var fields = tm()
        gmtime_r(&seconds, &fields)
        year = Int(fields.tm_year) + 1900
        month = Int(fields.tm_mon) + 1
        day = Int(fields.tm_mday)
        hour = Int(fields.tm_hour)
        minute = Int(fields.tm_min)
        second = Int(fields.tm_sec)
        millisecond = Int(milliseconds - whole * 1000)
        self.utcOffset = utcOffset
    }

    init(in environment: PhotoEnvironment, at date: Date) {
        self.init(date, utcOffset: environment.utcOffset(date))
    }

    /// "20261130_143205_123": the part of a photo name that says when it was taken.
    var photoNameStamp: String {
        pad(year, 4) + pad(month, 2) + pad(day, 2) + "_" + pad(hour, 2) + pad(minute, 2) + pad(second, 2)
            + "_" + pad(millisecond, 3)
    }

    /// "2026-11-30T14:32:05.123+01:00" (RFC 3339).
    var iso8601: String {
        let sign = utcOffset < 0 ? "-" : "+"
        let offset = abs(utcOffset) / 60
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
            + ".\(pad(millisecond, 3))\(sign)\(pad(offset / 60, 2)):\(pad(offset % 60, 2))"
    }

    /// "2026-11-30 14:32:05", for tables.
    var display: String {
        "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension Date {
    /// The moment local wall-clock fields name, given the UTC offset in force then.
    init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, utcOffset: Int) {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
              (0...59).contains(minute), (0...60).contains(second) else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month - 1)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hour)
        fields.tm_min = Int32(minute)
        fields.tm_sec = Int32(second)
        let utc = timegm(&fields)
        self.init(timeIntervalSince1970: Double(utc - time_t(utcOffset)))
    }
}
