import Foundation

/// Compact profiles of Latin-script languages: very common function words, distinctive letter trigrams
/// (`_` marks a word edge) and distinctive letters. A word shared by several languages counts for each
/// of them with weight 1 / (number of languages sharing it), so that only distinctive evidence decides.
enum LatinProfiles {
    static let languages = [
        "en", "de", "fr", "es", "it", "pt", "nl", "ca", "ro", "pl", "cs", "sk", "hr", "hu", "da", "nb", "sv", "fi",
        "tr", "id", "vi",
    ]

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
        "ca": """
        així doncs tots vam van anar fet nit ara mateix gairebé amb els és més però aquest aquesta això també són pot fer hi molt quan perquè avui demà ahir gràcies \
        jo nosaltres vosaltres ells elles seva seves meva aquests aquestes allà tots totes cap fins sense \
        després abans encara mai res algú alguna alguns
        """,
        "ro": """
        și în cu pe care să din pentru sunt mai fost iar sau dar ca dacă această acest acesta asta foarte \
        când unde cum azi mâine mulțumesc ei ea lor fie prin despre după între până acum aici toate toți ceva \
        nimic
        """,
        "pl": """
        w z się nie że jest od jak ale dla co tak za czy są już jego jej przez może tylko który która które \
        ten być także oraz lub bardzo jeszcze gdy kiedy dzisiaj jutro wczoraj mnie ty wy oni ona jestem \
        jesteś był była było będzie można przy pod nad bez tego tej tym też gdzie dlaczego dziękuję proszę \
        tak nic coś wszystko wszystkie aby żeby
        """,
        "cs": """
        v že z k jako ale jsem jsi jsou být byl byla bylo tak také který která které jeho její pro při od ve \
        za už jen nebo než když kde proč tady dnes zítra včera mě ty vy oni není aby tento tato toto jsme \
        jste bude může můžete mezi bez pod nad tím tedy také děkuji prosím ano něco nic všechno
        """,
        "sk": """
        v že z k ako ale som sú byť bol bola bolo tak tiež ktorý ktorá ktoré jeho jej pre pri od vo za už len \
        alebo než keď kde prečo dnes zajtra včera ty vy oni nie aby tento táto toto sme ste bude môže môžete \
        medzi bez pod nad tým teda ďakujem prosím áno niečo nič všetko
        """,
        "hr": """
        za od kao ili što koji koja koje biti bio bila bilo sam smo ste oni ona ovo taj već samo još kada \
        gdje zašto danas sutra jučer hvala jer iz će može mogu između bez pod nad nešto ništa sve svi
        """,
        "hu": """
        az és hogy egy meg volt ez azt csak már mint még ki kell lesz vagy mert minden nagyon után amikor \
        akkor itt ott holnap tegnap köszönöm igen én ők ő ezt aki ami amely által között pedig szerint lehet \
        vannak voltak fel ezek azok nincs valami semmi
        """,
        "da": """
        at er jeg fordi nogen lige hele sammen ingen uden hvem mere og det til som på med af ikke var mig sig men har min havde ham ud hans hvor eller hvad skal selv vil \
        blev kunne ind når være noget ville jo deres efter ned skulle denne end dette også under dig hende \
        mine meget sit sine mod disse hvis din nogle hos blive mange bliver hvorfor hvordan tak nej
        """,
        "nb": """
        veldig mye fikk sto noe og jeg det til som på med av ikke så var meg seg men har min mitt hadde nå ved ut oss opp hans hvor \
        eller hva skal selv vil bli ble blitt kunne inn når være noen noe ville dere deres etter ned skulle \
        denne deg sine sitt mot hvorfor dette disse uten hvordan ingen din ditt blir mellom hvem bare enn \
        fordi før mange også slik vært takk
        """,
        "sv": """
        och att det som på är av för med till har inte ett men var jag sig från så när år hon under också \
        efter eller där vid mot ska skulle kommer ut får finns vara hade andra mycket än här då sedan över \
        bara blir upp även vad två vill många hur mer går detta nya skall hans utan sina något vår idag igen \
        mig dig tack nej varför
        """,
        "fi": """
        ja ei että hän oli olla ovat kun mutta myös tai jos niin kuin joka mitä tämä siitä sen sitä vain jo nyt \
        minä sinä ole olen olet olemme mikä missä miksi miten tänään huomenna eilen kiitos kanssa sekä jotka \
        joita jossa koska vielä aina paljon hyvin tämän nämä niitä joiden jonka voidaan voit ollut kaikki \
        jotain mitään
        """,
        "tr": """
        ve bir bu için ile çok daha gibi var olan olarak ama sonra kadar değil ben sen biz siz onlar şey şu \
        nasıl neden nerede bugün yarın dün teşekkürler evet hayır ki veya ise göre yok olduğu olduğunu bunu \
        şimdi burada orada hiç
        """,
        "id": """
        yang ini itu dengan untuk dari dalam tidak akan pada adalah juga ke oleh sebagai atau bisa dapat ada \
        kami kita saya mereka telah sudah lebih karena jika seperti hari besok kemarin terima kasih apa \
        bagaimana mengapa tetapi hanya masih sangat semua banyak harus belum dan di tapi saja lagi sekali \
        sedang bahwa kalau agar setelah sebelum aku kamu
        """,
        "vi": """
        và của là có không một những các được trong cho người này với để đã khi đến từ cũng như thì nhưng tôi \
        bạn chúng họ rất nhiều hôm nay ngày mai cảm ơn vâng sẽ đang nếu vì nên đó ra vào làm gì sao đây
        """,
    ]

    /// Distinctive trigrams per language, written from general knowledge of each language's spelling. Those of
    /// Catalan and the languages after it were then checked against Debian's package descriptions
    /// (`scripts/bench/language-id.py`, the even half of the packages): a group stays only where it is at
    /// least three times (four for a group of ASCII letters) as frequent per word in its language as in any
    /// of the first seven, so that it does not pull English or German text away.
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
        "ca": """
        ixí _vam aix eix ix_ l·l _amb _els els ès_ _aq uès
        """,
        "ro": """
        ție ții ând ănd ată ăr_ că_ tă_ ări ște şte ţi ți_ _și _în
        """,
        "pl": """
        rz prz cz sz ści ść ię ą_ ów_ ych ego wy _wy dz cji ać_ owa ny_ nia ków
        """,
        "cs": """
        ní_ ých ého ová ání ení ři ře ů_ ům_ ků _př ně_ ět ět_ _je _jso
        """,
        "sk": """
        ov_ ých ého nie ať_ ú_ ôž ľ ova ej_ _sú ciu _je ách
        """,
        "hr": """
        ije je_ nj lj ih_ ima anj uje ći_ ći _je jeđ đ
        """,
        "hu": """
        sz gy ny cs ség ból ből nak nek ban hoz tás tés ok_ ak_ _eg egy _az
        """,
        "da": """
        ede_ gt_ øb lig _af af_ øre ær ør ning sk_ lse _og og_ _ik
        """,
        "nb": """
        tt_ gj kj sj av_ _ik ikk ør ær _og og_
        """,
        "sv": """
        och _oc lig ska tt_ är_ för för_ nin _är ör_ _hä rna ä_
        """,
        "fi": """
        ssa ssä stä llä kse ise ää uu ii ttä _ja ja_ tää jot _ol
        """,
        "tr": """
        lar yor bir lık lik dır ını mak mek ve_ ası ıl ğı ği
        """,
        "id": """
        nya mem ngg _ya ya_
        """,
        "vi": """
        nh_ _ng ươ ườ _kh ủa _củ ột ộ_ ều ợc
        """,
    ]

    /// Letters that point at one or a few languages, with their weight.
    private static let letterWeights: [Character: [(String, Double)]] = [
        "ß": [("de", 3)], "ä": [("de", 1.5), ("sv", 1), ("fi", 1.5), ("sk", 0.5)],
        "ö": [("de", 1), ("sv", 1), ("fi", 1.2), ("hu", 0.8), ("tr", 0.8)], "ü": [("de", 1.2), ("hu", 0.8), ("tr", 1)],
        "ñ": [("es", 3)], "¿": [("es", 3)], "¡": [("es", 3)],
        "ã": [("pt", 3)], "õ": [("pt", 3)], "ç": [("fr", 1), ("pt", 1), ("tr", 1), ("ca", 1)],
        "è": [("fr", 1.2), ("it", 0.8), ("ca", 0.8)], "ê": [("fr", 1.2), ("pt", 1), ("vi", 1)],
        "à": [("fr", 0.7), ("it", 0.7), ("pt", 0.5), ("ca", 0.7)],
        "â": [("fr", 1), ("pt", 0.8), ("ro", 1), ("vi", 1)], "î": [("fr", 1.5), ("ro", 1.5)],
        "ô": [("fr", 1), ("pt", 0.8), ("sk", 1), ("vi", 1)], "û": [("fr", 1.5)],
        "ë": [("nl", 1), ("fr", 0.5)], "ï": [("fr", 1), ("nl", 0.5), ("ca", 0.5)], "œ": [("fr", 3)],
        "ò": [("it", 2), ("ca", 1.5)], "ì": [("it", 2)], "ù": [("it", 1.5), ("fr", 0.5)],
        "á": [("es", 1), ("pt", 1), ("cs", 1), ("sk", 1), ("hu", 1)],
        "í": [("es", 1), ("pt", 1), ("cs", 1), ("sk", 1), ("hu", 1), ("ca", 0.5)],
        "ó": [("es", 1), ("pt", 1), ("pl", 0.5), ("cs", 0.3), ("hu", 1), ("ca", 0.8)],
        "ú": [("es", 1), ("pt", 1), ("cs", 0.8), ("sk", 1), ("hu", 1), ("ca", 0.5)],
        "é": [("fr", 0.6), ("es", 0.4), ("pt", 0.4), ("it", 0.2), ("cs", 0.3), ("sk", 0.3), ("hu", 0.4), ("ca", 0.3)],
        "ł": [("pl", 3)], "ą": [("pl", 3)], "ę": [("pl", 3)], "ś": [("pl", 3)], "ź": [("pl", 3)], "ż": [("pl", 3)],
        "ć": [("pl", 1.5), ("hr", 1.5)], "ń": [("pl", 3)],
        "ě": [("cs", 3)], "ř": [("cs", 3)], "ů": [("cs", 3)],
        "č": [("cs", 1), ("sk", 1), ("hr", 1)], "š": [("cs", 1), ("sk", 1), ("hr", 1)],
        "ž": [("cs", 0.8), ("sk", 0.8), ("hr", 0.8)],
        "ý": [("cs", 1), ("sk", 1)], "ň": [("cs", 1), ("sk", 1)], "ť": [("cs", 1), ("sk", 1)],
        "ď": [("cs", 1), ("sk", 1)],
        "ľ": [("sk", 3)], "ĺ": [("sk", 3)], "ŕ": [("sk", 3)],
        "đ": [("hr", 2), ("vi", 1)],
        "ő": [("hu", 3)], "ű": [("hu", 3)],
        "æ": [("da", 1.5), ("nb", 1.5)], "ø": [("da", 1.5), ("nb", 1.5)], "å": [("da", 0.7), ("nb", 0.7), ("sv", 1)],
        "ğ": [("tr", 3)], "ı": [("tr", 3)], "ş": [("tr", 2), ("ro", 1)],
        "ș": [("ro", 3)], "ț": [("ro", 3)], "ţ": [("ro", 3)], "ă": [("ro", 2), ("vi", 1)],
        "ư": [("vi", 3)], "ơ": [("vi", 3)], "ạ": [("vi", 3)], "ả": [("vi", 3)], "ấ": [("vi", 3)], "ầ": [("vi", 3)],
        "ậ": [("vi", 3)], "ắ": [("vi", 3)], "ặ": [("vi", 3)], "ẹ": [("vi", 3)], "ẻ": [("vi", 3)], "ế": [("vi", 3)],
        "ề": [("vi", 3)], "ể": [("vi", 3)], "ệ": [("vi", 3)], "ỉ": [("vi", 3)], "ị": [("vi", 3)], "ọ": [("vi", 3)],
        "ỏ": [("vi", 3)], "ố": [("vi", 3)], "ồ": [("vi", 3)], "ổ": [("vi", 3)], "ộ": [("vi", 3)], "ớ": [("vi", 3)],
        "ờ": [("vi", 3)], "ở": [("vi", 3)], "ợ": [("vi", 3)], "ụ": [("vi", 3)], "ủ": [("vi", 3)], "ứ": [("vi", 3)],
        "ừ": [("vi", 3)], "ử": [("vi", 3)], "ữ": [("vi", 3)], "ự": [("vi", 3)], "ỳ": [("vi", 3)], "ỹ": [("vi", 3)],
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
