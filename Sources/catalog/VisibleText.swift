extension String {
    /// The text with every control character (and every character that reorders text on screen)
    /// written out as an escape, so a feed's text cannot move the cursor, recolour or retitle the
    /// terminal it is printed to: ESC becomes `\u{1B}`, a tab `\t`. Line feeds stay, since the
    /// CLI's own text uses them.
    var visibleOnTerminal: String {
        guard unicodeScalars.contains(where: \.isHiddenFromTerminal) else { return self }
        var shown = ""
        for scalar in unicodeScalars {
            guard scalar.isHiddenFromTerminal else {
                shown.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\t": shown += "\\t"
            case "\r": shown += "\\r"
            default: shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return shown
    }
}

extension Unicode.Scalar {
    /// C0 and C1 control characters and DEL (but the line feed), and the bidirectional overrides
    /// and isolates, which reorder what follows them on screen.
    var isHiddenFromTerminal: Bool {
        switch value {
        case 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
