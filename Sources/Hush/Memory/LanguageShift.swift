import HushKernels

/// The part of a query's cosine with a document that a multilingual model owes to the document's language, in a
/// store of several languages: a search (unless ``SearchMode/acrossLanguages`` is off) lifts the documents of
/// the store's other languages by it, toward the query's own.
///
/// multilingual-e5 places each language's texts around a centre of its own (see ``DocumentCentres``), so a
/// chunk's cosine with a query carries its language's part: `q · c = q · (c − C_lang) + q · C_lang`. The query's
/// dot product with each language's centre is largest for its own language, the group whose centre is nearest
/// (`own`); a document of another language `m` scores less for its language alone, by `q · C_own − q · C_m`. Left
/// as it is, a store of two languages answers mostly in the query's language (a Chinese query does not find the
/// English entry about sleep).
///
/// A document of language `m` is lifted by `w × (q · C_own − q · C_m)`, where `w = min(1, n_own / n_largest)`:
/// the query language's documents against those of the largest other language. Where the query's language is
/// as large as any other, the whole gap is lifted, and a query finds what it means in every language (man pages
/// half English, half Chinese: hybrid nDCG@10 0.585 → 0.674 for English queries, 0.457 → 0.573 for Chinese;
/// shared out among English, Chinese and German, 0.544 → 0.644, 0.344 → 0.476, 0.393 → 0.536). Where it is a
/// small minority, the lift is as small, for every other language alike: lifting ten thousand English documents
/// by the whole gap buries a Chinese query's own documents among neighbouring English ones (611 Chinese
/// descriptions among 10,000 English: 0.910 → 0.818 with the whole gap; unchanged with `w`), while an English
/// query in that store lifts the Chinese descriptions by all of it (0.252 → 0.351). docs/feed-quality.md,
/// "Search across languages".
///
/// The documents of the query's own language keep their cosines, so their scores are those of a search without
/// the lift. A group of fewer than ``DocumentCentres/prior`` (16) documents that is also smaller than a 16th of
/// the largest is not taken for the query's language: its centre is mostly the store's (a group whose documents
/// do not lean toward the model's place for their language gets nothing of it, see ``DocumentCentres``), which in
/// a store of one main language is that language's: among 10,000 English descriptions, groups of one to three
/// guessed to be German, Italian or Portuguese were often nearer an English query than the English centre, and
/// the query, taken for a language of a few documents, lifted nothing. No shift in a store of one language, nor for a
/// document of undetermined language.
struct LanguageShift: Sendable {
    /// Per language group of ``DocumentCentres``: what is taken off the cosine of its documents (0 for the
    /// query's own language, negative for a language the query is farther from).
    let ofGroup: [Float]
    /// The centres the shift was computed from (their language groups and rows).
    let centres: DocumentCentres

    /// The shift of `query`'s cosines per language of `centres`; `nil` when the store has fewer than two
    /// language groups (nothing to shift between) or the query's length is not the centres'.
    init?(query: [Float], centres: DocumentCentres) {
        let groups = centres.languages.indices
        guard groups.count >= 2, query.count == centres.store.count else { return nil }
        let dots = centres.languages.map { VectorMath.dot(query, $0) }
        let counts = centres.documentsOfGroup
        let prior = DocumentCentres.prior
        let least = min(prior, (counts.max() ?? 0) / prior)
        guard let own = groups.filter({ counts[$0] >= least }).max(by: { dots[$0] < dots[$1] }) else { return nil }
        let largestOther = groups.filter { $0 != own }.map { counts[$0] }.max() ?? 0
        let weight = min(1, Float(counts[own]) / Float(max(1, largestOther)))
        ofGroup = dots.map { weight * ($0 - dots[own]) }
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
