/// The JSON form of a camera (`gstcam devices --json`), documented in docs/devices.md. Keys are explicit and
/// absent values are `null`, so the shape never depends on the device.
extension Camera: Encodable {
    private enum Keys: String, CodingKey {
        case index, path, name, driver, bus, stableId, stablePath, nodes, infrared, formats, features, accessible, problem
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(index, forKey: .index)
        try container.encode(path, forKey: .path)
        try container.encode(name, forKey: .name)
        try container.encode(driver, forKey: .driver)
        try container.encode(busInfo, forKey: .bus)
        try container.encode(stableID, forKey: .stableId)
        try container.encode(stablePath, forKey: .stablePath)
        try container.encode(nodes, forKey: .nodes)
        try container.encode(isInfrared, forKey: .infrared)
        try container.encode(formats, forKey: .formats)
        try container.encode(features, forKey: .features)
        try container.encode(isAccessible, forKey: .accessible)
        try container.encode(problem?.description, forKey: .problem)
    }
}

extension CameraFormat {
    private enum Keys: String, CodingKey { case fourcc, description, compressed, sizes, pipeline, skipped }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(pixelFormat, forKey: .fourcc)
        try container.encode(description, forKey: .description)
        try container.encode(isCompressed, forKey: .compressed)
        try container.encode(sizes, forKey: .sizes)
        try container.encode(support.kind?.pipelineName, forKey: .pipeline)
        try container.encode(support.skipReason, forKey: .skipped)
    }
}

extension CameraFrameSize {
    private enum Keys: String, CodingKey { case width, height, fps, rates, range, rateRange }
    private enum RateRangeKeys: String, CodingKey { case min, max }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(framesPerSecond, forKey: .fps)
        try container.encode(frameRates, forKey: .rates)
        try container.encode(range, forKey: .range)
        if let rateRange {
            var bounds = container.nestedContainer(keyedBy: RateRangeKeys.self, forKey: .rateRange)
            try bounds.encode(rateRange.lowerBound, forKey: .min)
            try bounds.encode(rateRange.upperBound, forKey: .max)
        } else {
            try container.encodeNil(forKey: .rateRange)
        }
    }
}
