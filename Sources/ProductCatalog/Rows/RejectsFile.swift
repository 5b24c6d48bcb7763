/// The CSV file that receives every rejected row: its line, the reason, and its original fields.
///
/// The file is created only when the first row is rejected, so a clean import leaves none; its
/// header is `line,reason,` followed by the input's header, so a fixed file can be imported again
/// after dropping the first two columns.
final class RejectsFile {
    let path: String
    private let header: [String]
    private var writer: CSVWriter?
    private(set) var count = 0

    init(path: String, header: [String]) {
        self.path = path
        self.header = header
    }

    /// Appends one rejected record.
    func write(line: Int, reason: String, fields: CSVRecord.Fields) throws {
        let writer = try self.writer ?? open()
        try writer.writeField(String(line))
        try writer.writeField(reason)
        for index in 0..<fields.count {
            try writer.writeField(fields[index])
        }
        try writer.endRecord()
        count += 1
    }

    /// Flushes the file, or removes a stale one from an earlier import when nothing was rejected.
    func finish() throws {
        if let writer {
            try writer.flush()
        } else {
            try FileSystem.removeIfPresent(path)
        }
    }

    /// Removes the file, written or not: for an import that failed for another reason than its
    /// rejected rows, which then explain nothing and would only take disk space (all of it, when
    /// the disk filled up).
    func discard() {
        try? writer?.flush()
        writer = nil
        try? FileSystem.removeIfPresent(path)
    }

    private func open() throws -> CSVWriter {
        let writer = try CSVWriter(path: path)
        try writer.writeField("line")
        try writer.writeField("reason")
        for name in header { try writer.writeField(name) }
        try writer.endRecord()
        self.writer = writer
        return writer
    }
}
