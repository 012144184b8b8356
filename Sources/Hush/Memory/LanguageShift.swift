import HushKernels

/// The part of a query's cosine with a document that a multilingual model owes to the document's language, in a
/// store of several languages; a search across languages (``SearchMode/acrossLanguages``) takes it off each
/// document's semantic score.
///
/// multilingual-e5 places each language's texts around a centre of its own (see ``DocumentCentres``), so a
/// chunk's cosine with a query carries its language's part: `q · c = q · (c − C_lang) + q · (C_lang − C_store) +
/// q · C_store`. The last term is the same for every document; the middle one is what this holds, one number per
/// language for a query, and it is larger for the query's own language. Taking it off leaves a document's content
/// to decide, so that a Chinese query finds the English entry about sleep as readily as a Chinese one. Measured
/// on man pages stored half in English only and half in Chinese only (docs/feed-quality.md, "Search across
/// languages"): semantic nDCG@10 rose for both query languages, pages in the other language gained most, pages
/// in the query's language lost a little. Where the query's language is a small minority of the store, its own
/// documents lose much more (Chinese queries among 10,000 English descriptions: 0.90 → 0.47), hence opt-in.
///
/// A store of one language gets no shift (its language's centre is the store's), nor does a document of
/// undetermined language; a language of few documents gets a small one (its centre is shrunk toward the
/// store's).
struct LanguageShift: Sendable {
    /// Per language group of ``DocumentCentres``: the query's dot product with that language's centre less the
    /// store's.
    let ofGroup: [Float]
    /// The centres the shift was computed from (their language groups and rows).
    let centres: DocumentCentres

    /// The shift of `query`'s cosines per language of `centres`; `nil` when the store has fewer than two
    /// language groups (nothing to shift between) or the query's length is not the centres'.
    init?(query: [Float], centres: DocumentCentres) {
        guard centres.languages.count >= 2, query.count == centres.store.count else { return nil }
        let base = VectorMath.dot(query, centres.store)
        ofGroup = centres.languages.map { VectorMath.dot(query, $0) - base }
        self.centres = centres
    }

    /// What is taken off the semantic score of the document at `slot` (0 for undetermined language).
    func callAsFunction(_ slot: Int) -> Float {
        centres.group(ofSlot: slot).map { ofGroup[$0] } ?? 0
    }

    /// Takes each scored document's shift off its score (the exact scan's scores).
    ///
    /// - Complexity: O(slots).
    func subtract(from scores: inout DocumentScores) {
        for slot in scores.best.indices where scores.bestRow[slot] >= 0 { scores.best[slot] -= self(slot) }
    }
}
