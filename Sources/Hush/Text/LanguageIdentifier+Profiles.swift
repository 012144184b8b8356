import Foundation

/// Compact profiles of Latin-script languages: very common function words, distinctive letter trigrams
/// (`_` marks a word edge) and distinctive letters. A word shared by several languages counts for each
/// of them with weight 1 / (number of languages sharing it), so that only distinctive evidence decides.
enum LatinProfiles {
    static let languages = ["en", "de", "fr", "es", "it", "pt", "nl"]

    private static let commonWords: [String: String] = [
        "en": """
        the of and to in is that it was for on are with as his they be at one have this from by not but \
        what all were we when your can said there use an each which she do how their if will up other \
        about out many then them these so some her would make like him into time has look two more \
        write go see number no way could people my than first been call who its now find long down day \
        did get come made may part over new after also just should because any most us very much where \
        why here our you i me he am had does been those while until though through again never always \
        today tomorrow yesterday please thanks anyone someone something nothing everything a or
        """,
        "de": """
        der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als auch es an \
        werden aus er hat dass daß sie nach wird bei einer um am sind noch wie einem über einen so zum \
        war haben nur oder aber vor zur bis mehr durch man sein wurde sei kann ich wir ihr uns mein \
        meine dein schon wenn weil heute morgen gestern gut sehr immer alle diese dieser dieses was wo \
        warum hier ja nein doch mal gibt habe bin bist hatte hatten können müssen soll sollte wollen \
        will ob zwischen unter gegen ohne seit dann jetzt nichts etwas viel viele neue neuen ganz kein \
        keine euch mir mich dir dich ihm ihn ihnen wieder bitte danke
        """,
        "fr": """
        de la le et les des en un du une que est pour qui dans par plus pas au sur ne se ce il sont à \
        avec ou son aux elle nous vous je tu on mais comme cette leur été être avoir fait très bien tout \
        tous toute aussi ces sa ses mon ma mes ton ta quand où pourquoi y ont était sans peu après avant \
        encore toujours rien chez lui dont même alors ici qu c j n s d l m t ça cela ceci avons avez \
        suis es sommes êtes font vais va allons peut faut notre nos votre vos leurs entre depuis \
        aujourd hui demain hier merci oui non moi toi eux celle celui quelque chose beaucoup trop
        """,
        "es": """
        de la que el en y a los del se las por un para con no una su al lo como más pero sus le ya o \
        este sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos \
        durante todos uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo \
        otro otras otra él tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas \
        algo nosotros es son está están estoy fue ha han he hemos era hoy mañana ayer tiene tengo \
        tenemos hacer bien mi tu te usted ustedes dónde cómo cuándo gracias aquí allí siempre nunca \
        después ahora luego pues entonces hace puede creo
        """,
        "it": """
        di e il la che è per in un a del non una le si da con i al della sono come ma gli lo dei nel \
        alla più anche ha ci se o mi questo questa delle tra ho nella perché quando molto già sempre \
        tutto tutti dove cosa essere fatto stato era ancora poi dopo oggi domani ieri bene ne sul sulla \
        degli io noi voi loro lui lei hanno abbiamo siamo sei siete sto sta stanno uno dal dalla dai \
        nei negli nelle alle agli ai col quale quello quella quelli anch fra niente qualcosa grazie \
        adesso allora così ti vi ce c l un po può devo voglio vuole
        """,
        "pt": """
        de a o que e do da em um para é com não uma os no se na por mais as dos como mas foi ao ele \
        das tem à seu sua ou ser quando muito há nos já está eu também só pelo pela até isso ela entre \
        era depois sem mesmo aos ter seus quem nas me esse eles estão você vocês tinha foram essa num \
        nem suas meu às minha têm numa pelos elas havia seja qual será nós hoje amanhã ontem bem onde \
        porque ainda sempre nada então aqui ali isto aquele aquela agora estou estamos vamos vai fazer \
        obrigado obrigada muita muitos coisa enquanto nosso nossa pouco tudo todos todas outro \
            outra vez
        """,
        "nl": """
        de en van het een in is dat op te zijn voor met die niet aan er om ook als dan maar bij of uit \
        nog worden door naar heeft tot ze wordt over hij zij kan was wat wij we ik je jij u hun haar \
        mijn zo al deze dit geen meer moet wel waar waarom hoe hier daar heel veel goed vandaag morgen \
        gisteren omdat hebben had werd zou kunnen moeten alle iets niets altijd nooit toch nu zijn \
        onze ons jullie mij hem zich wil gaat gaan komt kom doen dus bedankt alstublieft misschien \
        graag even eens
        """,
    ]

    /// Distinctive trigrams per language, written from general knowledge of each language's spelling.
    private static let trigrams: [String: String] = [
        "en": """
        _th the he_ ing ng_ and nd_ tio ion ed_ ly_ _wh ght igh ous ity ty_ oul ay_ _yo you ea_ ss_ \
        ee_ ow_ ew_ _kn wor rk_ ck_ _sh sh_ ook oo_ ure tch _wa
        """,
        "de": """
        sch ch_ ich cht ein ung _ge eit kei hen auf _zu ier ach uch ßen ür_ üb lic ich _ei ert tz_ \
        zt_ rde ige ßt_ ähr äch ück _ve _be nge ens aus
        """,
        "fr": """
        les des _qu que ais ait eau aux eux eur ux_ ée_ é_ oir ien ez_ ons ent_ _c' eus ême ère èr \
        ête ço ui_ oi_ ois ement re_ tre ont ité
        """,
        "es": """
        ión ón_ ció ado ada _el el_ los las os_ as_ ñ ñor ñan ero ien ía_ _qu que ues _mu uy_ _ha \
        ent idad dad ue_ _es _ll lla rse aba
        """,
        "it": """
        zio ell gli che chi ett tto to_ ia_ are ere ire nel per _pe zz cc i_ _gl glio _de _un _la \
        ità tà_ à_ no_ ssi ra_ _pi più _ch ggi
        """,
        "pt": """
        ção çõe ões ão_ _nh nh lh inh ade dos das em_ _nã não ós_ _vo voc ê_ ém_ _é_ ais _pa ara \
        ido ida _co eir nte _ma mos ica
        """,
        "nl": """
        ij_ ijk _ij aa oe ee sch cht en_ van het ege ijn aar oor _ui ooi _he _ee ge_ _ge _va eel \
        kk lijk ijd _zi nd_ dt_ jn_ uw_ oud
        """,
    ]

    /// Letters that point at one or a few languages, with their weight.
    private static let letterWeights: [Character: [(String, Double)]] = [
        "ß": [("de", 3)], "ä": [("de", 1.5)], "ö": [("de", 1)], "ü": [("de", 1.2)],
        "ñ": [("es", 3)], "¿": [("es", 3)], "¡": [("es", 3)],
        "ã": [("pt", 3)], "õ": [("pt", 3)], "ç": [("fr", 1), ("pt", 1)],
        "è": [("fr", 1.2), ("it", 0.8)], "ê": [("fr", 1.2), ("pt", 1)], "à": [("fr", 0.7), ("it", 0.7), ("pt", 0.5)],
        "â": [("fr", 1), ("pt", 0.8)], "î": [("fr", 1.5)], "ô": [("fr", 1), ("pt", 0.8)], "û": [("fr", 1.5)],
        "ë": [("nl", 1), ("fr", 0.5)], "ï": [("fr", 1), ("nl", 0.5)], "œ": [("fr", 3)],
        "ò": [("it", 2)], "ì": [("it", 2)], "ù": [("it", 1.5), ("fr", 0.5)],
        "á": [("es", 1), ("pt", 1)], "í": [("es", 1), ("pt", 1)], "ó": [("es", 1), ("pt", 1)],
        "ú": [("es", 1), ("pt", 1)], "é": [("fr", 0.6), ("es", 0.4), ("pt", 0.4), ("it", 0.2)],
    ]

    /// letter -> [(language index, weight)]
    private static let letters: [Character: [(Int, Double)]] = letterWeights.mapValues { owners in
        owners.compactMap { language, weight in languages.firstIndex(of: language).map { ($0, weight) } }
    }

    /// word -> [(language index, weight)]
    private static let wordTable: [String: [(Int, Double)]] = {
        var owners: [String: Set<String>] = [:]
        for (language, list) in commonWords {
            for word in list.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                owners[String(word), default: []].insert(language)
            }
        }
        return owners.mapValues { languages in
            let weight = 1.0 / Double(languages.count)
            return languages.sorted().compactMap { code in Self.languages.firstIndex(of: code).map { ($0, weight) } }
        }
    }()

    /// n-gram (spaces at word edges) -> [(language index, weight)]
    private static let gramTable: [String: [(Int, Double)]] = {
        var owners: [String: Set<String>] = [:]
        for (language, list) in trigrams {
            for gram in list.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                owners[String(gram.map { $0 == "_" ? " " : $0 }), default: []].insert(language)
            }
        }
        return owners.mapValues { languages in
            let weight = 0.3 / Double(languages.count)
            return languages.sorted().compactMap { code in Self.languages.firstIndex(of: code).map { ($0, weight) } }
        }
    }()

    /// The most likely of `languages` for a Latin-script text, or `nil` with no evidence at all (ties go to
    /// the code first in alphabetical order).
    static func identify(_ text: String) -> String? {
        let scores = score(text)
        var best: Int?
        for i in scores.indices where scores[i] > 0 {
            guard let b = best else {
                best = i
                continue
            }
            if scores[i] > scores[b] || (scores[i] == scores[b] && languages[i] < languages[b]) { best = i }
        }
        return best.map { languages[$0] }
    }

    /// How many of `text`'s words are common (function) words of each language that has any, the evidence a
    /// short text needs before its letter statistics are believed: "a", "de" or "en" count for each of the
    /// several languages they belong to.
    static func commonWordCounts(_ text: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for word in text.lowercased().split(whereSeparator: { !$0.isLetter }) {
            for (language, _) in wordTable[String(word)] ?? [] { counts[languages[language], default: 0] += 1 }
        }
        return counts
    }

    /// Evidence per language (indexed as `languages`): distinctive letters, then per word its common-word
    /// weight and its 2-, 3- and 4-grams (the word padded with a space each side). ASCII words are looked up
    /// by their bytes packed into an integer; other words by their characters.
    static func score(_ text: String) -> [Double] {
        let lower = text.lowercased()
        return lower.utf8.allSatisfy { $0 < 0x80 } ? asciiScore(lower) : scoreByCharacters(lower)
    }

    /// `score` of a lowercased text of any script, its words split by `Character.isLetter`.
    static func scoreByCharacters(_ lower: String) -> [Double] {
        var scores = [Double](repeating: 0, count: languages.count)
        if !lower.utf8.allSatisfy({ $0 < 0x80 }) {
            for character in lower {
                if let owners = letters[character] {
                    for (language, weight) in owners { scores[language] += weight }
                }
            }
        }
        for word in lower.split(whereSeparator: { !($0.isLetter) }) {
            if let owners = wordTable[String(word)] {
                for (language, weight) in owners { scores[language] += weight }
            }
            if word.utf8.allSatisfy({ $0 < 0x80 }) {
                addASCIIGrams(of: ArraySlice(word.utf8), to: &scores)
                continue
            }
            let padded = Array(" " + word + " ")
            guard padded.count >= 3 else { continue }
            for length in [2, 3, 4] where padded.count >= length {
                for start in 0...(padded.count - length) {
                    if let owners = gramTable[String(padded[start..<(start + length)])] {
                        for (language, weight) in owners { scores[language] += weight }
                    }
                }
            }
        }
        return scores
    }

    /// `score` of a lowercased ASCII text, on its bytes: its words are the runs of `a` to `z` (the only letters
    /// such a text has), taken in the same order as ``scoreByCharacters(_:)`` takes them, so the sums agree.
    static func asciiScore(_ lower: String) -> [Double] {
        var scores = [Double](repeating: 0, count: languages.count)
        var bytes = Array(lower.utf8)
        bytes.append(0)  // ends the last word
        var start = -1
        for (i, byte) in bytes.enumerated() {
            let letter = byte &- 0x61 < 26
            if letter && start < 0 { start = i }
            guard !letter, start >= 0 else { continue }
            let word = bytes[start..<i]
            start = -1
            if let owners = wordTable[String(decoding: word, as: UTF8.self)] {
                for (language, weight) in owners { scores[language] += weight }
            }
            addASCIIGrams(of: word, to: &scores)
        }
        return scores
    }

    /// The n-gram step of `score` for a word of ASCII letters, in the same order.
    private static func addASCIIGrams(of word: ArraySlice<UInt8>, to scores: inout [Double]) {
        let base = word.startIndex
        let count = word.count + 2  // padded with a space each side
        guard count >= 3 else { return }
        @inline(__always) func byte(_ i: Int) -> UInt32 {
            i == 0 || i == count - 1 ? 0x20 : UInt32(word[base + i - 1])
        }
        for length in 2...4 where count >= length {
            for start in 0...(count - length) {
                var key: UInt32 = 0
                for i in start..<(start + length) { key = key << 8 | byte(i) }
                if let owners = asciiGramTable[key] {
                    for (language, weight) in owners { scores[language] += weight }
                }
            }
        }
    }

    /// The ASCII entries of `gramTable`, keyed by their bytes packed big-end first (lengths 2 to 4, no zero
    /// byte, so lengths never collide).
    private static let asciiGramTable: [UInt32: [(Int, Double)]] = {
        var table: [UInt32: [(Int, Double)]] = [:]
        for (gram, owners) in gramTable where gram.utf8.allSatisfy({ $0 < 0x80 }) && gram.utf8.count <= 4 {
            table[gram.utf8.reduce(0) { $0 << 8 | UInt32($1) }] = owners
        }
        return table
    }()
}
