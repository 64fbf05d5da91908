/// A small option parser: commands take what they know, then `finish()` rejects anything left over, so an
/// unknown option is always a usage error rather than silently ignored.
package struct Arguments {
    private var items: [String]

    package init(_ items: [String]) { self.items = items }

    package var isEmpty: Bool { items.isEmpty }

    /// Everything not taken yet, for a command that hands its arguments on (ServeLauncher).
    package mutating func takeAll() -> [String] {
        defer { items = [] }
        return items
    }

    /// Whether `--help`/`-h` was given anywhere.
    package mutating func takeHelp() -> Bool {
        flag("--help", "-h")
    }

    /// A boolean flag given by any of `names`.
    package mutating func flag(_ names: String...) -> Bool {
        var found = false
        items.removeAll { item in
            if names.contains(item) { found = true; return true }
            return false
        }
        return found
    }

    /// The value of `--name VALUE` or `--name=VALUE`; the last one wins.
    package mutating func option(_ names: String...) throws -> String? {
        var value: String?
        var index = 0
        while index < items.count {
            let item = items[index]
            if let name = names.first(where: { item.hasPrefix($0 + "=") }) {
                value = String(item.dropFirst(name.count + 1))
                items.remove(at: index)
            } else if names.contains(item) {
                guard index + 1 < items.count else { throw UsageError("\(item) needs a value") }
                value = items[index + 1]
                items.removeSubrange(index...index + 1)
            } else {
                index += 1
            }
        }
        return value
    }

    /// An option whose value may be left out: `--name VALUE` when VALUE is one of `values`, `--name=VALUE`, or
    /// bare `--name`, which gives `bare`. Nil when not given; a `--name=VALUE` outside `values` is a usage error.
    package mutating func option(_ name: String, values: [String], bare: String) throws -> String? {
        try option(name, bare: bare, isValue: { values.contains($0.lowercased()) }) { joined in
            guard values.contains(joined.lowercased()) else {
                throw UsageError("\(name): \"\(joined.lowercased())\" is not one of \(values.joined(separator: ", "))")
            }
        }.map { $0 == bare ? $0 : $0.lowercased() }
    }

    /// An option whose value may be left out, free-form: `--name=VALUE` (which `checkJoined` may refuse),
    /// `--name VALUE` when VALUE `isValue` (e.g. contains a %), or bare `--name`, which gives `bare`. Nil when not given.
    package mutating func option(_ name: String, bare: String, isValue: (String) -> Bool,
                                 checkJoined: (String) throws -> Void = { _ in }) rethrows -> String? {
        var found: String?
        var index = 0
        while index < items.count {
            let item = items[index]
            if item.hasPrefix(name + "=") {
                let value = String(item.dropFirst(name.count + 1))
                try checkJoined(value)
                found = value
                items.remove(at: index)
            } else if item == name {
                let takesNext = index + 1 < items.count && isValue(items[index + 1])
                found = takesNext ? items[index + 1] : bare
                items.removeSubrange(index...(takesNext ? index + 1 : index))
            } else {
                index += 1
            }
        }
        return found
    }

    /// Every value of a repeatable option (`--set a=1 --set b=2`), in order; several names are one option.
    package mutating func options(_ names: String...) throws -> [String] {
        var values: [String] = []
        var index = 0
        while index < items.count {
            if let name = names.first(where: { items[index].hasPrefix($0 + "=") }) {
                values.append(String(items[index].dropFirst(name.count + 1)))
                items.remove(at: index)
            } else if names.contains(items[index]) {
                guard index + 1 < items.count else { throw UsageError("\(items[index]) needs a value") }
                values.append(items[index + 1])
                items.removeSubrange(index...index + 1)
            } else {
                index += 1
            }
        }
        return values
    }

    /// An option parsed with `parse`, which returns nil for a malformed value.
    package mutating func option<T>(_ name: String, as what: String, _ parse: (String) -> T?) throws -> T? {
        guard let text = try option(name) else { return nil }
        guard let value = parse(text) else { throw UsageError("\(name): \"\(text)\" is not \(what)") }
        return value
    }

    package mutating func int(_ name: String, minimum: Int = Int.min) throws -> Int? {
        try option(name, as: minimum > Int.min ? "a whole number ≥ \(minimum)" : "a whole number") {
            Int($0).flatMap { $0 >= minimum ? $0 : nil }
        }
    }

    package mutating func double(_ name: String, minimum: Double = -Double.infinity) throws -> Double? {
        try option(name, as: "a number ≥ \(minimum)") { Double($0).flatMap { $0 >= minimum && $0.isFinite ? $0 : nil } }
    }

    /// The remaining positional arguments; any remaining `-x`/`--x` is an unknown option.
    package mutating func positionals() throws -> [String] {
        if let unknown = items.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            throw UsageError("unknown option \(unknown)")
        }
        defer { items = [] }
        return items
    }

    /// Rejects anything not taken.
    package mutating func finish() throws {
        let rest = try positionals()
        if let first = rest.first { throw UsageError("unexpected argument \"\(first)\"") }
    }
}
