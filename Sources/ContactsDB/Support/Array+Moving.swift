extension Array {
    /// `source`'s elements through `transform` (with their index), in
    /// their order, each moved rather than copied: a copy of a contact
    /// retains every field and releases them again with the source. The
    /// elements are taken from the last to the first, so `transform` must
    /// not depend on the order of its calls. `source` is left empty.
    static func moving<Source>(_ source: inout [Source], _ transform: (Int, Source) -> Element) -> [Element] {
        let count = source.count
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            var index = count
            while let element = source.popLast() {
                index -= 1
                (buffer.baseAddress! + index).initialize(to: transform(index, element))
            }
            initialized = count
        }
    }
}
