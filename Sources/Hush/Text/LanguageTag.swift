/// BCP-47 language tags as apps give them ("zh-Hans", "pt_BR", "EN") and as Hush guesses them (primary codes):
/// compared by subtag, case and `-`/`_` aside.
enum LanguageTag {
    /// The lower-cased subtags of `tag` ("zh_Hans-CN" → "zh", "hans", "cn").
    static func subtags(_ tag: String) -> [Substring] {
        tag.lowercased().split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
    }

    /// The lower-cased primary subtag ("zh" for "zh-Hans" and "ZH_cn"; "" for an empty tag).
    ///
    /// ```swift
    /// LanguageTag.primary("zh-Hans")  // "zh"
    /// ```
    static func primary(_ tag: String) -> String {
        subtags(tag).first.map(String.init) ?? ""
    }

    /// Whether a document's language `tag` answers a filter's `range`: the two are equal or one extends the other
    /// by whole subtags. So "zh" matches "zh-Hans" and "ZH_cn"; "zh-Hans" matches "zh" and "zh-Hans-CN" but not
    /// "zh-Hant" or "zh-CN"; "en-US" matches "en" (what Hush guesses) but not "en-GB".
    ///
    /// ```swift
    /// LanguageTag.isCompatible("zh", with: "zh-Hans")  // true
    /// LanguageTag.isCompatible("zh-Hant", with: "zh-Hans")  // false
    /// ```
    static func isCompatible(_ tag: String, with range: String) -> Bool {
        let a = subtags(tag)
        let b = subtags(range)
        return a.starts(with: b) || b.starts(with: a)
    }
}
