/// Control names as v4l2-ctl prints them and as `gstcam get/set` accept them.
enum ControlName {
    /// The driver's label in v4l2-ctl's form: lowercase, every run of characters that are not ASCII letters or
    /// digits becomes one "_", none at either end. "Focus, Automatic Continuous" → "focus_automatic_continuous",
    /// "White Balance Temperature, Auto" → "white_balance_temperature_auto".
    static func from(label: String) -> String {
        var result = ""
        var pendingSeparator = false
        for character in label.unicodeScalars {
            let isWordCharacter = character.isASCII && (("a"..."z").contains(character) || ("A"..."Z").contains(character)
                || ("0"..."9").contains(character))
            if isWordCharacter {
                if pendingSeparator && !result.isEmpty { result += "_" }
                pendingSeparator = false
                result += String(character).lowercased()
            } else {
                pendingSeparator = true
            }
        }
        return result
    }

    /// Up to `limit` names close to `typed`, closest first: names containing it (or contained in it) and names
    /// within a few edits (a third of the length, at least two), so "brigthness" finds "brightness" and "focus"
    /// finds "focus_absolute".
    static func suggestions(for typed: String, among names: [String], limit: Int = 5) -> [String] {
        let wanted = from(label: typed)
        guard !wanted.isEmpty else { return [] }
        let scored = names.compactMap { name -> (String, Int)? in
            let distance = editDistance(wanted, name)
            if distance <= max(2, wanted.count / 3) { return (name, distance) }
            if name.contains(wanted) || (wanted.count >= 4 && wanted.contains(name)) { return (name, 100 + abs(name.count - wanted.count)) }
            return nil
        }
        return scored.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.prefix(limit).map(\.0)
    }

    /// Levenshtein distance (insertions, deletions, substitutions).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
