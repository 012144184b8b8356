/// Very common words that carry little meaning in a query, per language.
enum StopWords {
    private static let english = """
        a about above after again against all am an and any are as at be because been before being below \
        between both but by can could did do does doing down during each few for from further had has have \
        having he her here hers herself him himself his how i if in into is it its itself just me more most \
        my myself no nor not now of off on once only or other our ours ourselves out over own same she \
        should so some such than that the their theirs them themselves then there these they this those \
        through to too under until up very was we were what when where which while who whom why will with \
        would you your yours yourself yourselves s t don didn doesn isn wasn aren weren won ll ve re d m
        """
    private static let german = """
        der die das den dem des ein eine einer einem einen eines und oder aber in im an am auf aus bei mit \
        von vom zu zum zur für über unter ist sind war waren bin bist sein hat haben hatte ich du er sie es \
        wir ihr mich dich sich mir dir uns euch wie was wo wer warum wann nicht kein keine auch noch schon \
        so als dass ob wenn nur sehr
        """
    private static let french = """
        le la les l un une des du de d et ou mais en dans sur sous avec pour par au aux ce cet cette ces \
        est sont être était ai as a avons avez ont je tu il elle on nous vous ils elles me te se qui que \
        qu quoi où comment pourquoi quand ne pas plus y c j n s mon ma mes ton ta tes son sa ses
        """
    private static let spanish = """
        el la los las un una unos unas de del al y o pero en con por para sin sobre es son era está están \
        fue ser yo tú él ella nosotros ellos me te se le les lo mi mis tu tus su sus que qué quien cómo \
        como dónde donde cuándo cuando por qué no sí muy más
        """
    private static let italian = """
        il lo la i gli le un uno una di del della dei degli delle da dal in nel nella con su sul per tra \
        fra e o ma è sono era essere ho ha hanno io tu lui lei noi voi loro mi ti si ci che chi cosa come \
        dove quando perché non più molto
        """
    private static let portuguese = """
        o a os as um uma uns umas de do da dos das em no na nos nas com por para sem sobre e ou mas é são \
        era foi ser eu tu ele ela nós eles elas me te se lhe que quem como onde quando porque não sim muito \
        mais
        """
    private static let dutch = """
        de het een en of maar in op aan met van voor naar bij uit om te door over is zijn was waren ben \
        bent heeft hebben had ik jij je hij zij ze wij we jullie u mij me hem haar ons die dat dit deze wat \
        wie waar hoe waarom wanneer niet geen ook nog al zo dan als er
        """

    private static func parse(_ list: String) -> Set<String> {
        Set(list.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
    }

    private static let englishSet = parse(english)
    private static let byLanguage: [String: Set<String>] = [
        "de": parse(german), "fr": parse(french), "es": parse(spanish), "it": parse(italian),
        "pt": parse(portuguese), "nl": parse(dutch),
    ]

    /// English stop words, plus those of `language` when it has a list.
    static func set(for language: String) -> Set<String> {
        guard let own = byLanguage[language] else { return englishSet }
        return englishSet.union(own)
    }
}

/// The words of a Chinese question that say it is a question, not what it is about: "怎么办" (what to do),
/// "为什么" (why), "有没有" (is there), in simplified and traditional characters. A query's Han runs are not
/// split into words, so these would match as bigrams of their own ("失眠怎么办" found the entry that asked
/// "不知道该怎么道歉" by its "怎么"). Only phrases of two characters or more are cut anywhere in a run (one
/// character can be part of a word: 的 of 目的); the final particles (吗, 呢, …) only at a run's end.
enum ChineseQuestionWords {
    private static let phrases: [String] = {
        let simplified = """
            怎么办 怎么样 怎么会 怎么 为什么 为何 什么样 什么是 是什么 什么 如何 怎样 是不是 有没有 能不能 会不会 要不要 \
            可不可以 可以 应该 我该 请问 一下 一个 这个 那个 哪个 哪些 这些 那些 我们 你们 他们 自己 还是 或者 但是 因为 \
            所以 如果 的话 关于 有关
            """
        let traditional = """
            怎麼辦 怎麼樣 怎麼會 怎麼 為什麼 為何 什麼樣 什麼是 是什麼 什麼 是不是 有沒有 能不能 會不會 要不要 可不可以 \
            應該 請問 這個 哪個 這些 我們 你們 他們 還是 因為 如果 的話 關於 有關
            """
        let all = (simplified + " " + traditional).split(separator: " ").map(String.init)
        // Longest first, so that "怎么办" is cut whole rather than as "怎么" and a stray "办".
        return Array(Set(all)).sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }()
    // Not 吧, which ends nouns too (酒吧, a bar).
    private static let finalParticles: Set<Character> = ["吗", "嗎", "呢", "啊", "呀", "嘛"]

    /// `term` without its question words, as the pieces left between them (in order, none empty); `term`
    /// alone when it holds none.
    ///
    /// ```swift
    /// ChineseQuestionWords.pieces(of: "失眠怎么办")          // ["失眠"]
    /// ChineseQuestionWords.pieces(of: "为什么总是焦虑呢")    // ["总是焦虑"]
    /// ```
    static func pieces(of term: String) -> [String] {
        let characters = Array(term)
        var pieces: [String] = []
        var current: [Character] = []
        var index = 0
        outer: while index < characters.count {
            for phrase in phrases where phrase.count <= characters.count - index {
                if characters[index..<(index + phrase.count)].elementsEqual(phrase) {
                    if !current.isEmpty { pieces.append(String(current)) }
                    current.removeAll()
                    index += phrase.count
                    continue outer
                }
            }
            current.append(characters[index])
            index += 1
        }
        while let last = current.last, finalParticles.contains(last) { current.removeLast() }
        if !current.isEmpty { pieces.append(String(current)) }
        return pieces
    }
}
