extension EncodedRow {
    /// Binds every slot that `parameters` does not mark absent, starting at `firstParameter`,
    /// without copying its text: the row must outlive the statement's ``Statement/execute(_:)``.
    @inline(__always)
    func bind(to statement: borrowing Statement.Bindings, firstParameter: Int32, parameters: UnsafeBufferPointer<Parameter>) throws {
        var cursor = base + Self.headerSize
        var parameter = firstParameter
        for kind in parameters {
            let count = cursor.loadUnaligned(as: UInt32.self)
            cursor += 4
            if kind == .absent {
                if count != Self.nullMarker { cursor += Int(count) }
                continue
            }
            if count == Self.nullMarker {
                try statement.bindNull(parameter)
            } else if kind == .integer {
                try statement.bind(parameter, cursor.loadUnaligned(as: Int64.self))
                cursor += 8
            } else {
                let bytes = UnsafeBufferPointer(start: cursor.assumingMemoryBound(to: UInt8.self), count: Int(count))
                try statement.bindText(parameter, unsafeBytes: bytes)
                cursor += Int(count)
            }
            parameter += 1
        }
    }
}
