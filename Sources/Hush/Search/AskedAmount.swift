import Foundation

/// Questions that ask what something cost, and whether a record states any amount of money: a record that states
/// none does not answer "How much did the agency charge for the website?", however close its words and meaning
/// (the kickoff with the agency, which never gives the price). A search lowers such a hit's relevance
/// (``SearchHit/relevance``) far below a good match.
///
/// A question asks for an amount when it names a cost, a price, a fee, a salary or a rent ("what did the keys
/// cost", "hannah's salary offer") or a cap on a budget or spending, or asks "how much" money or budget there was,
/// or someone charged, paid or spent, in English, German, French, Spanish, Chinese or Japanese, and asks for no person, place or task ("who is
/// paying the deposit?" asks for a person). Its answer is then the record's line that states one, and a record that
/// states none is no good match. An amount is a number written with a currency (`36,400 euros`, `€50`, `$5`,
/// `5000元`) or in thousands or millions (`78k`, `1.42 million`).
///
/// ```swift
/// AskedAmount.holdsMoney("Fixed price of 18,500 euros.")  // true
/// AskedAmount.holdsMoney("Retest on June 15-16.")  // false
/// ```
enum AskedAmount {
    /// How much a hit's odds of relevance are divided by when its record states no amount of money and the
    /// question asks for one: a hit estimated at 0.99 falls to 0.09, multilingual-e5-small's threshold.
    static let oddsDivisor: Float = 1000

    /// Whether the question read into `cues`, which asks for `kinds` of field, asks for an amount of money.
    static func isAsked(_ cues: FieldQuestion.Cues, kinds: Set<FieldQuestion.Kind>) -> Bool {
        guard kinds.isSubset(of: [.decision]) else { return false }
        let named = cues.first(
            words: [
                "cost", "costs", "costing", "costed", "price", "prices", "priced", "fee", "fees", "salary", "salaries",
                "rent", "wage", "wages", "kostet", "kosteten", "kosten", "preis", "gehalt", "miete", "gebühr",
                "gebühren", "coûte", "coûtent", "coûté", "prix", "salaire", "loyer", "frais", "tarif", "cuesta",
                "cuestan", "costó", "precio", "salario", "sueldo", "alquiler", "tarifa",
            ],
            phrases: ["多少钱", "价格", "费用", "工资", "租金", "薪水", "いくら", "値段", "料金", "費用", "給料", "家賃", "価格"])
        if named != nil { return true }
        // "spring offsite budget cap", "what did we cap the budget at?"
        if cues.has(["budget", "budgets", "spend", "spending"]),
            cues.has(["cap", "capped", "ceiling", "limit", "maximum", "max"])
        {
            return true
        }
        // "How much did the agency charge?", not "how much faster did we answer?".
        guard cues.first(words: [], phrases: ["how much", "wie viel", "combien", "cuánto", "cuanto"]) != nil else {
            return false
        }
        return cues.first(
            words: [
                "charge", "charged", "charging", "charges", "pay", "paid", "paying", "pays", "spend", "spent",
                "spending", "money", "budget", "cash", "bezahlt", "zahlen", "gezahlt", "geld", "payé",
                "payer", "argent", "pagamos", "pagar", "pagó", "dinero", "presupuesto",
            ], phrases: []) != nil
    }

    /// Whether `text` states an amount of money: a number with a currency before or after it, or with `k`,
    /// "million" or "thousand" after it.
    static func holdsMoney(_ text: String) -> Bool {
        let tokens = Self.tokens(text)
        for (index, token) in tokens.enumerated() {
            switch token {
            case .number(let suffix):
                if let suffix, isAmount(suffix) { return true }
                guard index + 1 < tokens.count, case .word(let next) = tokens[index + 1] else { continue }
                if currencies.contains(next) || multipliers.contains(next) { return true }
            case .word(let word):
                guard currencies.contains(word), index + 1 < tokens.count, case .number = tokens[index + 1] else {
                    continue
                }
                return true
            }
        }
        return false
    }

    /// A number (digits with their separators) and the letters written onto it ("78k", "5000元"), or a word or
    /// a currency sign, lower-cased.
    private enum Token {
        case number(suffix: String?)
        case word(String)
    }

    private static let currencies: Set<String> = [
        "€", "$", "£", "¥", "₹", "₩", "fr", "chf", "eur", "euro", "euros", "usd", "dollar", "dollars", "gbp", "pound",
        "pounds", "yen", "jpy", "franken", "francs", "kr", "sek", "nok", "dkk", "pln", "zł", "元", "块", "円", "万元",
        "万円",
    ]
    private static let multipliers: Set<String> = [
        "k", "mn", "bn", "million", "millions", "thousand", "mio", "millionen", "tausend", "mille", "millones",
        "mil", "万", "亿", "千",
    ]

    /// Whether letters written onto a number make it an amount: "k", "eur", or in Chinese and Japanese a currency
    /// or a multiplier opening the words that follow ("5000元的预算").
    private static func isAmount(_ suffix: String) -> Bool {
        if multipliers.contains(suffix) || currencies.contains(suffix) { return true }
        guard suffix.unicodeScalars.first?.isASCII == false else { return false }
        return unspaced.contains { suffix.hasPrefix($0) }
    }

    /// The currencies and multipliers written without a space before what follows (Chinese and Japanese).
    private static let unspaced = currencies.union(multipliers).filter { $0.unicodeScalars.first?.isASCII == false }

    private static func tokens(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        var inNumber = false
        var suffix = ""
        func flush() {
            if inNumber {
                tokens.append(.number(suffix: suffix.isEmpty ? nil : suffix))
            } else if !current.isEmpty {
                tokens.append(.word(current))
            }
            current = ""
            suffix = ""
            inNumber = false
        }
        let characters = Array(text.lowercased())
        for (index, character) in characters.enumerated() {
            if character.isNumber {
                if !inNumber || !suffix.isEmpty { flush() }
                inNumber = true
                current.append(character)
            } else if inNumber, suffix.isEmpty, ".,'".contains(character), index + 1 < characters.count,
                characters[index + 1].isNumber
            {
                current.append(character)
            } else if character.isLetter {
                if inNumber { suffix.append(character) } else { current.append(character) }
            } else {
                flush()
                if "€$£¥₹₩".contains(character) { tokens.append(.word(String(character))) }
            }
        }
        flush()
        return tokens
    }
}
