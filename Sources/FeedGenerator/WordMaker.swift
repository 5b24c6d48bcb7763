/// Makes pronounceable words that look like those of six European languages, accents included.
///
/// A word is one to four syllables of one language (onset, vowel, coda), sometimes with one of
/// its endings (`-ung`, `-tion`, `-ción`, `-ość` …). Nothing is looked up: the words come from
/// the seed alone, so a vocabulary of any size needs no network and no word list.
struct WordMaker {
    /// The pieces of one language's words.
    struct Language {
        let onsets: [String]
        let vowels: [String]
        let codas: [String]
        let endings: [String]
    }

    static let languages: [Language] = [
        // English
        Language(
            onsets: ["b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "y",
                     "bl", "br", "ch", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "pl", "pr", "sc", "sh", "sk",
                     "sl", "sp", "st", "str", "th", "tr", "wh", ""],
            vowels: ["a", "e", "i", "o", "u", "ai", "ea", "ee", "oa", "oo", "ou", "y"],
            codas: ["", "", "", "n", "r", "s", "t", "l", "m", "ck", "ng", "nd", "st", "rt", "sh", "ll", "x"],
            endings: ["er", "ing", "ness", "ful", "less", "ly", "able"]),
        // German
        Language(
            onsets: ["b", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "w", "z", "sch", "st",
                     "sp", "pf", "kl", "kr", "gr", "br", "fr", "schw", "tr", ""],
            vowels: ["a", "e", "i", "o", "u", "ä", "ö", "ü", "ei", "au", "eu", "ie"],
            codas: ["", "", "n", "r", "l", "ch", "cht", "ng", "nk", "tz", "ß", "st", "rt", "ck", "ff", "m"],
            endings: ["ung", "keit", "heit", "chen", "lich", "isch", "er", "en", "schaft"]),
        // French
        Language(
            onsets: ["b", "c", "ch", "d", "f", "g", "j", "l", "m", "n", "p", "qu", "r", "s", "t", "v", "pr",
                     "tr", "gr", "bl", "cl", "fl", ""],
            vowels: ["a", "e", "é", "è", "ê", "i", "o", "ou", "au", "eau", "oi", "ai", "u", "û", "î", "ô"],
            codas: ["", "", "", "n", "r", "s", "t", "l", "x", "rd", "nt"],
            endings: ["tion", "ment", "eur", "euse", "ette", "ière", "age", "ité", "esque"]),
        // Spanish
        Language(
            onsets: ["b", "c", "ch", "d", "f", "g", "j", "l", "ll", "m", "n", "ñ", "p", "qu", "r", "s", "t",
                     "v", "z", "br", "pr", "tr", "gr", "bl", "pl", ""],
            vowels: ["a", "e", "i", "o", "u", "á", "é", "í", "ó", "ú", "ie", "ue"],
            codas: ["", "", "", "n", "r", "s", "l", "z"],
            endings: ["ción", "dad", "ero", "ito", "ista", "ado", "ería"]),
        // Polish
        Language(
            onsets: ["b", "c", "cz", "d", "dz", "g", "h", "k", "ł", "m", "n", "p", "r", "rz", "s", "sz", "ś",
                     "t", "w", "z", "ż", "ź", "prz", "trz", "szcz", "ch", "kr", "st"],
            vowels: ["a", "e", "i", "o", "u", "y", "ą", "ę", "ó", "ie"],
            codas: ["", "", "", "k", "n", "ń", "ć", "ś", "sk", "cz", "ł", "j"],
            endings: ["ość", "owy", "ski", "arz", "nik", "ek", "ówka"]),
        // Swedish
        Language(
            onsets: ["b", "d", "f", "g", "h", "j", "k", "kl", "kn", "l", "m", "n", "p", "r", "s", "sk", "sl",
                     "sm", "sn", "st", "str", "t", "v", "sj", ""],
            vowels: ["a", "e", "i", "o", "u", "y", "å", "ä", "ö"],
            codas: ["", "", "n", "r", "s", "t", "ll", "nn", "ck", "ng", "rd", "lk"],
            endings: ["het", "ning", "ig", "lig", "are", "skap"]),
    ]

    /// A word of `language` with `syllables` syllables (1 to 4), drawn from `random`.
    static func word(language: Language, syllables: Int, random: inout SplitMix64) -> String {
        var bits = random.next()
        func pick(_ list: [String]) -> String {
            let index = Int(truncatingIfNeeded: bits % UInt64(list.count))
            bits /= UInt64(list.count)
            if bits < 1_000 { bits = random.next() }
            return list[index]
        }
        var word = ""
        for syllable in 0..<syllables {
            let onset = pick(language.onsets)
            // An empty onset after a vowel would run two vowels together; keep the word readable.
            word += syllable > 0 && onset.isEmpty ? language.onsets[0] : onset
            word += pick(language.vowels)
            if syllable == syllables - 1 || bits % 3 == 0 { word += pick(language.codas) }
        }
        if bits % 5 == 0 { word += pick(language.endings) }
        return word
    }
}
