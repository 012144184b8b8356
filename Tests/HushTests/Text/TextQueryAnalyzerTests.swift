import Testing

@testable import Hush

@Suite struct TextQueryAnalyzerTests {
    @Test func porterStemsKnownWords() {
        let expected: [String: String] = [
            "caresses": "caress", "ponies": "poni", "ties": "ti", "caress": "caress", "cats": "cat",
            "feed": "feed", "agreed": "agre", "plastered": "plaster", "bled": "bled", "motoring": "motor",
            "sing": "sing", "conflated": "conflat", "troubled": "troubl", "sized": "size", "hopping": "hop",
            "tanned": "tan", "falling": "fall", "hissing": "hiss", "fizzed": "fizz", "failing": "fail",
            "filing": "file", "happy": "happi", "sky": "sky", "relational": "relat", "conditional": "condit",
            "rational": "ration", "valenci": "valenc", "digitizer": "digit", "conformabli": "conform",
            "radicalli": "radic", "differentli": "differ", "vileli": "vile", "analogousli": "analog",
            "vietnamization": "vietnam", "predication": "predic", "operator": "oper", "feudalism": "feudal",
            "decisiveness": "decis", "hopefulness": "hope", "callousness": "callous", "formaliti": "formal",
            "sensitiviti": "sensit", "sensibiliti": "sensibl", "triplicate": "triplic", "formative": "form",
            "formalize": "formal", "electriciti": "electr", "electrical": "electr", "hopeful": "hope",
            "goodness": "good", "revival": "reviv", "allowance": "allow", "inference": "infer",
            "airliner": "airlin", "gyroscopic": "gyroscop", "adjustable": "adjust", "defensible": "defens",
            "irritant": "irrit", "replacement": "replac", "adjustment": "adjust", "dependent": "depend",
            "adoption": "adopt", "homologou": "homolog", "communism": "commun", "activate": "activ",
            "angulariti": "angular", "homologous": "homolog", "effective": "effect", "bowdlerize": "bowdler",
            "probate": "probat", "rate": "rate", "cease": "ceas", "controll": "control", "roll": "roll",
            "generalizations": "gener", "meetings": "meet", "running": "run", "connections": "connect",
        ]
        for (word, stem) in expected {
            #expect(QueryAnalyzer.stem(word) == stem, "\(word)")
        }
        #expect(QueryAnalyzer.stem("Running") == "run")
        #expect(QueryAnalyzer.stem("as") == "as")
        // As the keyword index stores them: diacritics removed, digits and non-ASCII letters stemmed too.
        #expect(QueryAnalyzer.stem("café") == "cafe")
        #expect(QueryAnalyzer.stem("1990s") == "1990")
    }

    @Test func englishQueryKeepsContentWordsAndStemsThem() {
        let analysis = QueryAnalyzer().analyze("What did we decide about the running budget in those meetings?")
        #expect(analysis.language == "en")
        #expect(analysis.terms == ["decide", "running", "budget", "meetings"])
        #expect(analysis.keywords == ["decid", "run", "budget", "meet"])
        #expect(analysis.original == "What did we decide about the running budget in those meetings?")
    }

    /// Too few letters for statistics, but "my" is an English function word.
    @Test func shortQueriesAreNamedByTheirFunctionWordsAndStemmed() {
        let analysis = QueryAnalyzer().analyze("texting my ex")
        #expect(analysis.language == "en")
        #expect(QueryAnalyzer().analyze("texting ex").language == "und")
        #expect(analysis.terms == ["texting", "ex"])
        #expect(analysis.keywords == ["text", "ex"])
    }

    @Test func germanQueryDropsGermanStopWordsWithoutEnglishStemming() {
        let analysis = QueryAnalyzer().analyze("Wie war das Treffen mit den Kollegen gestern?")
        #expect(analysis.language == "de")
        #expect(analysis.terms == ["treffen", "kollegen", "gestern"])
        #expect(analysis.keywords == analysis.terms)
    }

    @Test func queriesAreCleanedLikeDocuments() {
        let analysis = QueryAnalyzer().analyze("  notes from @ana about https://example.com/roadmap  ")
        #expect(analysis.cleaned == "notes from @user about [link]")
        #expect(analysis.terms == ["notes"])
    }

    @Test func onlyStopWordsAreKeptRatherThanLeavingNothing() {
        let analysis = QueryAnalyzer().analyze("what is it")
        #expect(analysis.terms == ["what", "is", "it"])
    }

    @Test func duplicatesAndPunctuationAreRemoved() {
        let analysis = QueryAnalyzer().analyze("Budget, budget... BUDGET! (2024)")
        #expect(analysis.terms == ["budget", "2024"])
    }

    /// A Chinese question keeps what it asks about, not the words that make it a question.
    @Test func chineseQuestionWordsAreNotKeywords() {
        let analyzer = QueryAnalyzer()
        let expected: [String: [String]] = [
            "失眠怎么办": ["失眠"],
            "失眠怎麼辦": ["失眠"],
            "为什么总是焦虑呢": ["总是焦虑"],
            "有没有好用的记账软件？": ["好用的记账软件"],
            "怎么跟妈妈道歉": ["跟妈妈道歉"],
            "焦虑是什么": ["焦虑"],
            // A word that ends like a particle or holds one character of a question word stays whole.
            "附近的酒吧": ["附近的酒吧"],
            "目的地": ["目的地"],
        ]
        for (query, terms) in expected {
            let analysis = analyzer.analyze(query, fallbackLanguage: "zh")
            #expect(analysis.language.hasPrefix("zh"), "\(query)")
            #expect(analysis.terms == terms, "\(query): \(analysis.terms)")
        }
        // Only question words: they are kept rather than leaving nothing to match.
        #expect(analyzer.analyze("怎么办", fallbackLanguage: "zh").terms == ["怎么办"])
    }

    /// What `analyze()` shows a person: words, not stems ("di", "hous"), and Chinese, Japanese and Thai cut into
    /// words (the keyword index still reads those runs by letter pairs: `terms` keeps them whole).
    @Test func wordsAreWhatAPersonReads() {
        let analyzer = QueryAnalyzer()
        let english = analyzer.analyze("Why did the house feel so empty?")
        #expect(english.keywords.contains("hous"))
        #expect(english.words == ["house", "feel", "empty"])
        #expect(analyzer.analyze("我最近总是睡不着，怎么办").words == ["最近", "总是", "睡", "不着"])
        #expect(analyzer.analyze("失眠怎么办").words == ["失眠"])
        #expect(analyzer.analyze("東京大学で勉強しています").words == ["東京", "大学", "勉強"])
        #expect(analyzer.analyze("ร้านกาแฟใกล้บ้าน").words == ["ร้าน", "กาแฟ", "ใกล้", "บ้าน"])
        #expect(analyzer.analyze("我最近总是睡不着，怎么办").terms.count == 1)
    }
}
