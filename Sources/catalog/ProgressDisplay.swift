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
            Terminal.standardOutput.writeExactly(ImportEvent.progress(progress).jsonValue.serialized + "\n")
        case .live:
            Terminal.standardError.writeExactly("\r" + Self.line(progress).visibleOnTerminal + "\u{1B}[K")
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

    /// `writing  [#########-----------]  45%  450,000 rows  1,200,000 rows/s  0.4 s left  0 rejected`
    ///
    /// The bar and percent are the whole import's; the rows and the rate are the phase's own.
    static func line(_ progress: ImportProgress) -> String {
        let phase: String
        switch progress.phase {
        case .loading: phase = "reading"
        case .writing: phase = "writing"
        case .finishing, .finished: phase = "finishing"
        }
        var parts = [phase.padding(toLength: 9, withPad: " ", startingAt: 0)]
        if let fraction = progress.fractionCompleted {
            let width = 24
            let filled = Int((fraction * Double(width)).rounded(.down))
            parts.append("[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]")
            parts.append(String(Int((fraction * 100).rounded(.down))).leftPadded(to: 3) + "%")
        } else {
            parts.append(Formatting.bytes(progress.bytesRead))
        }
        if progress.phase != .finishing {
            parts.append("\(Formatting.count(progress.rowsInPhase)) rows")
            parts.append("\(Formatting.count(Int(progress.rowsPerSecond))) rows/s")
        }
        if let eta = progress.estimatedTimeRemaining {
            parts.append("\(Formatting.seconds(eta)) left")
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
