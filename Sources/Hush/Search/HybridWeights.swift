// The default hybrid search's semantic weight (alpha; the keyword arm gets 1 - alpha), by the model's language
// scope and the query's language: the one table of them, beside the calibration tables it goes with.
//
// Measured on the multilingual man-page set (`scripts/bench/quality-multilingual.sh`, nDCG@10, alphas 0 to 0.85;
// docs/benchmarks.md), chosen on the even-numbered queries and reported on the odd ones:
// - multilingual-e5-small: 0.75 is the one weight at which the hybrid beats both arms in all seven languages
//   (its mean is within 0.0003 of 0.7's), cross-language queries included, with the model's own chunk sizes;
// - all-MiniLM-L6-v2: 0.6 in English; 0.3 in German, French, Spanish and Russian, where its semantic arm is
//   weak; 0 in Chinese and Japanese, where any semantic weight ranked below the keyword arm alone (ties are then
//   ordered by meaning, and a query no keyword matches is still answered by meaning);
// - the lexical fallback (no model): 0.15 in every language, its best mean nDCG@10 over the seven languages
//   among 0.1-0.3 (0.6 for English had been MiniLM's weight, too much for vectors that hash words).

extension Embedder {
    /// The semantic weight of the default hybrid search for a query in `queryLanguage`: by the model's language
    /// scope, except for a lexical embedder, whose vectors are word and letter statistics, a second and fuzzier
    /// keyword arm rather than meaning.
    func defaultHybridAlpha(queryLanguage: String) -> Float {
        identity.pooling == .lexical ? 0.15 : languageScope.hybridAlpha(queryLanguage: queryLanguage)
    }
}

extension LanguageScope {
    /// The semantic weight of the default hybrid search for a query in `queryLanguage` with a model of this
    /// scope.
    func hybridAlpha(queryLanguage: String) -> Float {
        switch self {
        case .multilingual: 0.75
        case .monolingual:
            switch LanguageTag.primary(queryLanguage) {
            case "en", "und": 0.6
            // An English model's vectors of Chinese or Japanese text rank worse than chance within the keyword
            // matches: keywords decide, meaning orders what they leave tied or finds what they miss.
            case "zh", "ja": 0
            default: 0.3
            }
        case .perLanguage: 0.6
        }
    }
}
