import ProductCatalog

/// Shows an import's progress: a bar redrawn in place on a terminal, a plain line about once a
/// second otherwise, or one JSON object per line with `--json`.
struct ProgressDisplay {
    enum Style {
        case live, plain, json
    }

    let style: Style
    /// In plain mode the first line comes after a second: a quick import prints only its summary.
    private var lastPlainLine = ContinuousClock.now

    init(json: Bool) {
        if json {
            style = .json
        } else {
            style = Terminal.standardError.isInteractive ? .live : .plain
        }
    }

    mutating func show(_ progress: ImportProgress) {
        switch style {
        case .json:
            Terminal.standardOutput.write(JSONLine.progress(progress) + "\n")
        case .live:
            Terminal.standardError.write("\r" + Self.line(progress) + "\u{1B}[K")
        case .plain:
            let now = ContinuousClock.now
            guard now - lastPlainLine >= .seconds(1) else { return }
            lastPlainLine = now
            Terminal.standardError.write(Self.line(progress) + "\n")
        }
    }

    /// Ends the live line so the summary starts on a fresh one.
    func finish() {
        if style == .live { Terminal.standardError.write("\n") }
    }

    /// `[#########-----------]  45%  450,000 rows  1,200,000 rows/s  ETA 0.4 s  0 rejected`
    static func line(_ progress: ImportProgress) -> String {
        var parts: [String] = []
        if let fraction = progress.fractionCompleted {
            let width = 24
            let filled = Int((fraction * Double(width)).rounded(.down))
            parts.append("[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]")
            parts.append(String(Int((fraction * 100).rounded(.down))).leftPadded(to: 3) + "%")
        } else {
            parts.append(Formatting.bytes(progress.bytesRead))
        }
        parts.append("\(Formatting.count(progress.rowsRead)) rows")
        parts.append("\(Formatting.count(Int(progress.rowsPerSecond))) rows/s")
        if let eta = progress.estimatedTimeRemaining {
            parts.append("ETA \(Formatting.seconds(eta))")
        } else if progress.phase == .finishing {
            parts.append("finishing")
        }
        parts.append("\(Formatting.count(progress.rowsRejected)) rejected")
        return parts.joined(separator: "  ")
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

/// The `--json` event lines of `catalog import`.
enum JSONLine {
    static func progress(_ progress: ImportProgress) -> String {
        JSONValue.object([
            "event": .string("progress"),
            "phase": .string(progress.phase.rawValue),
            "rowsRead": .int(progress.rowsRead),
            "rowsInserted": .int(progress.rowsInserted),
            "rowsRejected": .int(progress.rowsRejected),
            "duplicates": .int(progress.duplicates),
            "bytesRead": .int(progress.bytesRead),
            "totalBytes": progress.totalBytes.map(JSONValue.int) ?? .null,
            "seconds": .double(progress.elapsed.seconds),
            "rowsPerSecond": .double(progress.rowsPerSecond.rounded()),
            "etaSeconds": progress.estimatedTimeRemaining.map { .double($0.seconds) } ?? .null,
        ]).serialized
    }

    static func finished(_ summary: ImportSummary) -> String {
        JSONValue.object([
            "event": .string("finished"),
            "rowsRead": .int(summary.rowsRead),
            "rowsInserted": .int(summary.rowsInserted),
            "rowsRejected": .int(summary.rowsRejected),
            "duplicates": .int(summary.duplicates),
            "bytesRead": .int(summary.bytesRead),
            "seconds": .double(summary.elapsed.seconds),
            "database": .string(summary.databasePath),
            "rejects": .string(summary.rejectsPath),
        ]).serialized
    }

    static func failed(_ message: String) -> String {
        JSONValue.object(["event": .string("failed"), "message": .string(message)]).serialized
    }
}
