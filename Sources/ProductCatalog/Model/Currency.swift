/// ISO 4217 currency codes and the symbols shops write instead of them.
public enum Currency {
    /// True for three ASCII capital letters that name a currency in ISO 4217.
    public static func isCode(_ text: String) -> Bool {
        text.utf8.count == 3 && codes.contains(text)
    }

    /// Digits after the decimal point in `code`'s amounts: 0 for JPY, 3 for KWD, else 2.
    public static func minorDigits(of code: String) -> Int {
        if noMinorUnit.contains(code) { return 0 }
        if threeMinorDigits.contains(code) { return 3 }
        return 2
    }

    /// The code a shop means by a symbol: `€` is EUR, `£` GBP, `¥` JPY, `$` and `US$` USD.
    static func code(forSymbol symbol: String) -> String? {
        symbols[symbol]
    }

    /// Symbols, longest first so that `R$` is tried before `$`.
    static let symbolsByLength: [String] = symbols.keys.sorted { $0.count > $1.count }

    private static let symbols: [String: String] = [
        "€": "EUR", "£": "GBP", "¥": "JPY", "￥": "JPY", "₹": "INR", "₩": "KRW", "₽": "RUB", "₺": "TRY",
        "₪": "ILS", "₫": "VND", "₱": "PHP", "฿": "THB", "zł": "PLN", "R$": "BRL", "US$": "USD", "$": "USD",
        "C$": "CAD", "A$": "AUD", "NZ$": "NZD", "HK$": "HKD", "S$": "SGD", "Fr.": "CHF", "kr": "SEK",
    ]

    private static let noMinorUnit: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF",
    ]
    private static let threeMinorDigits: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]
    /// The codes with three minor digits, for messages: `BHD, IQD, … and TND`.
    static let threeMinorDigitCodes: String = {
        let codes = threeMinorDigits.sorted()
        return codes.dropLast().joined(separator: ", ") + " and " + codes.last!
    }()

    private static let codes: Set<String> = Set("""
        AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP
        CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR
        ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT
        MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD
        SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND
        VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWL
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
}
