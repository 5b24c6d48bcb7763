import ProductCatalog

/// Numbers and durations the way people read them: `1,234,567`, `0.8 s`.
enum Formatting {
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(character)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    static func seconds(_ duration: Duration) -> String {
        let seconds = duration.seconds
        if seconds < 10 { return fixed(seconds, decimals: 2) + " s" }
        if seconds < 120 { return fixed(seconds, decimals: 1) + " s" }
        let whole = Int(seconds.rounded())
        return "\(whole / 60) min \(whole % 60) s"
    }

    static func bytes(_ value: Int) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var amount = Double(value)
        var unit = 0
        while amount >= 1000, unit < units.count - 1 {
            amount /= 1000
            unit += 1
        }
        return unit == 0 ? "\(value) B" : fixed(amount, decimals: 1) + " " + units[unit]
    }

    /// `value` with exactly `decimals` digits after the point.
    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = String(scaled % Int(scale))
        guard decimals > 0 else { return String(whole) }
        return "\(whole)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
