extension PipelineFile {
    /// The element factories the description names (`v4l2src`, `videocrop`, `tee`, …), in order, each once: the
    /// first word of every link that is not caps (`video/x-raw,…`), a reference to a named element (`split.`)
    /// or a placeholder (`${sink}`). What plugins to load ahead of parsing (`GStreamerRuntime`); a word that is
    /// no factory is simply not found there, so this need not understand every corner of gst-launch syntax.
    public var elementFactoryNames: [String] {
        var names: [String] = []
        for link in template.split(separator: "!") {
            guard let word = link.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).first,
                  !word.contains(where: { "/.$=".contains($0) }) else { continue }
            let name = String(word)
            if !names.contains(name) { names.append(name) }
        }
        return names
    }
}
