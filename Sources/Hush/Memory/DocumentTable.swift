import Foundation

/// The documents of the in-memory index, by dense slot (reused after deletion), kept as columns: per slot the
/// rowid, the external id, the creation time and the ids of its strings (language, source type, category,
/// tags, metadata keys and values) in one table of distinct strings. A filter compares small integers; a
/// ``DocumentRecord`` is put together only when asked for; the columns save and load as a few arrays (see
/// ``writeImage(to:)``), and a hundred thousand documents that share their tags and languages hold little
/// more than their ids.
struct DocumentTable: Sendable {
    /// Rowid per slot; -1 for a free slot.
    private var rowids: [Int64] = []
    private var externalIDs: [String] = []
    private var createdAts: [Double] = []
    /// String ids per slot (-1: absent).
    private var languages: [Int32] = []
    private var sourceTypes: [Int32] = []
    private var categories: [Int32] = []
    private var tagLists = PooledLists<Int32>()
    /// (key id << 32 | value id) per metadata entry, sorted.
    private var metadataLists = PooledLists<Int64>()

    /// Distinct strings as written, and for each the id of its lower-cased form (what filters compare).
    private var strings: [String] = []
    private var stringIDs: [String: Int32] = [:]
    private var folded: [Int32] = []

    private(set) var slotByRowid = IDMap()
    private var freeSlots: [Int32] = []
    /// Live documents per language, by the id of its lower-cased code; only languages of live documents are
    /// keys, so that what is asked on every search (``dominantLanguage``, ``hasSeveralLanguages``) reads a few
    /// entries however many tags and metadata values the table interns.
    private var languageCounts: [Int32: Int] = [:]
    /// The string interned last and its id: documents loaded one after another mostly share their language.
    private var lastInterned: (value: String, id: Int32)?

    /// The number of live documents.
    var count: Int { slotByRowid.count }
    /// One past the highest slot ever used: the size of per-slot arrays.
    var capacity: Int { rowids.count }

    /// The language most documents are in (ties: the first by name), or `nil` for an empty table or one whose
    /// documents are all undetermined.
    var dominantLanguage: String? {
        var best: (language: String, count: Int)?
        for (id, count) in languageCounts where strings[Int(id)] != "und" {
            let language = strings[Int(id)]
            if let current = best, current.count > count || (current.count == count && current.language < language) {
                continue
            }
            best = (language, count)
        }
        return best?.language
    }

    /// The language at least half of the documents of determined language are in, or `nil`: what a short text
    /// of unclear letters is taken to be in (``DocumentPreparer/languages(guessed:shortTexts:storeLanguage:)``).
    var majorityLanguage: String? {
        guard let dominant = dominantLanguage else { return nil }
        var total = 0
        var top = 0
        for (id, count) in languageCounts where strings[Int(id)] != "und" {
            total += count
            if strings[Int(id)] == dominant { top = count }
        }
        return 2 * top >= total ? dominant : nil
    }

    /// Whether the live documents are in two languages or more (by primary subtag, undetermined ones aside;
    /// see ``languageGroups()``).
    ///
    /// - Complexity: O(languages of live documents).
    var hasSeveralLanguages: Bool {
        var first: Substring?
        for id in languageCounts.keys {
            guard let code = Self.primarySubtag(strings[Int(id)]) else { continue }
            if let first, first != code { return true }
            first = code
        }
        return false
    }

    /// The lower-cased primary subtag of a language code ("zh" for "zh-Hans" and "ZH_cn"); `nil` for
    /// undetermined ("und" or empty).
    static func primarySubtag(_ code: String) -> Substring? {
        let subtag = LanguageTag.primary(code)
        return subtag == "und" || subtag.isEmpty ? nil : Substring(subtag)
    }

    /// The live documents grouped by language, as its primary subtag lower-cased ("zh-Hans", "zh_CN" and "ZH"
    /// are one group, "zh"): per slot the index of its group in `languages`, or -1 for a free slot and for a
    /// document whose language is undetermined ("und" or empty); and per group its code and live documents.
    ///
    /// - Complexity: O(capacity + distinct strings).
    func languageGroups() -> (groupOfSlot: [Int32], languages: [String], documents: [Int]) {
        var groupOfString = [Int32](repeating: -1, count: strings.count)
        var groupOfCode: [String: Int32] = [:]
        var languages: [String] = []
        for (id, value) in strings.enumerated() where languageCounts[folded[id]] != nil {
            guard let code = Self.primarySubtag(value).map(String.init) else { continue }
            if let group = groupOfCode[code] {
                groupOfString[id] = group
            } else {
                groupOfString[id] = Int32(languages.count)
                groupOfCode[code] = Int32(languages.count)
                languages.append(code)
            }
        }
        var documents = [Int](repeating: 0, count: languages.count)
        let groupOfSlot =
            languages.isEmpty
            ? [Int32](repeating: -1, count: rowids.count)
            : (0..<rowids.count).map { slot -> Int32 in
                let id = self.languages[slot]
                guard rowids[slot] >= 0, id >= 0 else { return -1 }
                let group = groupOfString[Int(id)]
                if group >= 0 { documents[Int(group)] += 1 }
                return group
            }
        return (groupOfSlot, languages, documents)
    }

    func slot(ofRowid rowid: Int64) -> Int32? { slotByRowid[rowid] }

    /// Whether `slot` holds a document.
    func isLive(_ slot: Int) -> Bool { slot >= 0 && slot < rowids.count && rowids[slot] >= 0 }

    /// The rowid at `slot` (-1 for a free slot).
    func rowid(atSlot slot: Int) -> Int64 { slot >= 0 && slot < rowids.count ? rowids[slot] : -1 }

    /// The external id at `slot`, or `nil` for a free slot.
    func externalID(atSlot slot: Int) -> String? { isLive(slot) ? externalIDs[slot] : nil }

    /// The creation time at `slot` (seconds since 1970; 0 for a free slot).
    func createdAt(atSlot slot: Int) -> Double { isLive(slot) ? createdAts[slot] : 0 }

    func record(atSlot slot: Int32) -> DocumentRecord? {
        let index = Int(slot)
        guard isLive(index) else { return nil }
        func string(_ id: Int32) -> String? { id >= 0 ? strings[Int(id)] : nil }
        var metadata: [String: String] = [:]
        for pair in metadataLists[index] {
            metadata[strings[Int(pair >> 32)]] = strings[Int(UInt32(truncatingIfNeeded: pair))]
        }
        return DocumentRecord(
            rowid: rowids[index], externalID: externalIDs[index], language: string(languages[index]) ?? "und",
            sourceType: string(sourceTypes[index]), tags: tagLists[index].map { strings[Int($0)] },
            category: string(categories[index]), createdAt: createdAts[index], metadata: metadata)
    }

    /// Inserts or replaces the record for `record.rowid`, returning its slot.
    @discardableResult
    mutating func upsert(_ record: DocumentRecord) -> Int32 {
        let slot: Int32
        if let existing = slotByRowid[record.rowid] {
            slot = existing
            countLanguage(of: Int(slot), by: -1)
        } else if let reused = freeSlots.popLast() {
            slot = reused
        } else {
            slot = Int32(rowids.count)
            rowids.append(-1)
            externalIDs.append("")
            createdAts.append(0)
            languages.append(-1)
            sourceTypes.append(-1)
            categories.append(-1)
            tagLists.appendEmpty()
            metadataLists.appendEmpty()
        }
        let index = Int(slot)
        rowids[index] = record.rowid
        externalIDs[index] = record.externalID
        createdAts[index] = record.createdAt
        languages[index] = intern(record.language)
        sourceTypes[index] = record.sourceType.map { intern($0) } ?? -1
        categories[index] = record.category.map { intern($0) } ?? -1
        // A new slot's lists are already empty (most documents have no tags or metadata).
        if !record.tags.isEmpty || tagLists[index].count > 0 { tagLists.set(record.tags.map { intern($0) }, at: index) }
        if !record.metadata.isEmpty || metadataLists[index].count > 0 {
            metadataLists.set(record.metadata.map { Self.pair(intern($0.key), intern($0.value)) }.sorted(), at: index)
        }
        slotByRowid[record.rowid] = slot
        countLanguage(of: index, by: 1)
        return slot
    }

    /// Removes the record for `rowid`, returning the freed slot.
    @discardableResult
    mutating func remove(rowid: Int64) -> Int32? {
        guard let slot = slotByRowid.removeValue(forKey: rowid) else { return nil }
        let index = Int(slot)
        countLanguage(of: index, by: -1)
        rowids[index] = -1
        externalIDs[index] = ""
        tagLists.set([], at: index)
        metadataLists.set([], at: index)
        languages[index] = -1
        sourceTypes[index] = -1
        categories[index] = -1
        freeSlots.append(slot)
        return slot
    }

    private mutating func countLanguage(of index: Int, by delta: Int) {
        let id = languages[index]
        guard id >= 0 else { return }
        let key = folded[Int(id)]
        let count = languageCounts[key, default: 0] + delta
        languageCounts[key] = count > 0 ? count : nil
    }

    /// The id of `value` as written, interning it (and its lower-cased form) when new.
    private mutating func intern(_ value: String) -> Int32 {
        if let last = lastInterned, last.value == value { return last.id }
        if let id = stringIDs[value] {
            lastInterned = (value, id)
            return id
        }
        let lower = value.lowercased()
        let lowerID = lower == value ? nil : intern(lower)
        let id = Int32(strings.count)
        strings.append(value)
        stringIDs[value] = id
        folded.append(lowerID ?? id)
        lastInterned = (value, id)
        return id
    }

    private static func pair(_ key: Int32, _ value: Int32) -> Int64 {
        (Int64(key) << 32) | Int64(UInt32(bitPattern: value))
    }

    /// The slots of the live documents that pass `filter`; `nil` when the filter is empty (every live
    /// document passes).
    ///
    /// - Complexity: O(documents × predicates), integer comparisons only.
    func mask(for filter: SearchFilter) -> Bitset? {
        if filter.isEmpty { return nil }
        // Compile the filter's strings into folded ids; an unknown string can match nothing.
        let impossible: Int32 = -2
        func fold(_ value: String) -> Int32 { stringIDs[value.lowercased()].map { folded[Int($0)] } ?? impossible }
        func codes(_ values: [String]) -> Set<Int32>? { values.isEmpty ? nil : Set(values.map(fold)) }
        func foldedID(_ id: Int32) -> Int32 { id >= 0 ? folded[Int(id)] : -1 }
        // A language matches by tag: "zh" lets "zh-Hans" and "zh_CN" through, and "zh-Hans" lets "zh" through
        // (a guessed language is a primary code) but not "zh-Hant" (``LanguageTag/isCompatible(_:with:)``).
        let languageSet =
            filter.languages.isEmpty
            ? nil
            : Set(
                languageCounts.keys.filter { id in
                    filter.languages.contains { LanguageTag.isCompatible(strings[Int(id)], with: $0) }
                })
        let sourceSet = codes(filter.sourceTypes)
        let categorySet = codes(filter.categories)
        let anyTags = codes(filter.tagsAny)
        let allTags = codes(filter.tagsAll)
        // Metadata keys and values match exactly as written.
        let metadata: [Int64] = filter.metadata.map { entry in
            guard let key = stringIDs[entry.key], let value = stringIDs[entry.value] else { return -1 }
            return Self.pair(key, value)
        }
        let after = filter.createdAfter?.timeIntervalSince1970
        let before = filter.createdBefore?.timeIntervalSince1970

        var mask = Bitset(count: rowids.count)
        for index in 0..<rowids.count where rowids[index] >= 0 {
            if let languageSet, !languageSet.contains(foldedID(languages[index])) { continue }
            if let sourceSet, !sourceSet.contains(foldedID(sourceTypes[index])) { continue }
            if let categorySet, !categorySet.contains(foldedID(categories[index])) { continue }
            if let after, createdAts[index] < after { continue }
            if let before, createdAts[index] >= before { continue }
            if let anyTags, !tagLists[index].contains(where: { anyTags.contains(folded[Int($0)]) }) { continue }
            if let allTags, !allTags.allSatisfy({ wanted in tagLists[index].contains { folded[Int($0)] == wanted } }) {
                continue
            }
            if !metadata.isEmpty, !metadata.allSatisfy(metadataLists[index].contains) { continue }
            if !filter.excludedIDs.isEmpty, filter.excludedIDs.contains(externalIDs[index]) { continue }
            mask.insert(index)
        }
        return mask
    }
}

extension DocumentTable {
    /// The slots of every live document.
    var liveSlots: Bitset { Bitset(count: rowids.count) { rowids[$0] >= 0 } }

    // MARK: - Saved image

    /// Writes the table as columns: the distinct strings of the live documents, then per slot its rowid,
    /// external id, time and string ids, tags and metadata as flat lists with their offsets (free slots included,
    /// as rowid -1, with nothing else). The table in memory keeps every string it ever interned; the image keeps
    /// only those a live document names, so that a deleted document's tags and metadata do not stay in the file.
    ///
    /// - Complexity: O(slots + strings) bytes, a few large writes.
    func writeImage(to output: ImageOutput) throws {
        let (live, newID) = liveStrings()
        func renumbered(_ ids: [Int32]) -> [Int32] { ids.map { $0 < 0 ? $0 : newID[Int($0)] } }
        try Self.writeStrings(live, to: output)
        try output.writeArray(rowids)
        try Self.writeStrings(externalIDs, to: output)
        try output.writeArray(createdAts)
        try output.writeArray(renumbered(languages))
        try output.writeArray(renumbered(sourceTypes))
        try output.writeArray(renumbered(categories))
        let tags = tagLists.flattened
        try output.writeArray(tags.counts)
        try output.writeArray(renumbered(tags.values))
        let metadata = metadataLists.flattened
        try output.writeArray(metadata.counts)
        try output.writeArray(
            metadata.values.map {
                Self.pair(newID[Int($0 >> 32)], newID[Int(Int32(truncatingIfNeeded: $0))])
            })
    }

    /// The strings the live documents name, interned afresh in the order of their first interning (so that
    /// ``readImage(from:)`` interning them again gets the same ids), and each old id's new one (-1: unused).
    private func liveStrings() -> (strings: [String], newID: [Int32]) {
        var used = Bitset(count: strings.count)
        for slot in 0..<rowids.count where rowids[slot] >= 0 {
            for id in [languages[slot], sourceTypes[slot], categories[slot]] where id >= 0 { used.insert(Int(id)) }
            for id in tagLists[slot] { used.insert(Int(id)) }
            for pair in metadataLists[slot] {
                used.insert(Int(pair >> 32))
                used.insert(Int(Int32(truncatingIfNeeded: pair)))
            }
        }
        var fresh = DocumentTable()
        var newID = [Int32](repeating: -1, count: strings.count)
        for id in 0..<strings.count where used.contains(id) { newID[id] = fresh.intern(strings[id]) }
        return (fresh.strings, newID)
    }

    /// Reads a table written by ``writeImage(to:)``, checking every id against the strings it read.
    ///
    /// - Complexity: O(slots + strings).
    static func readImage(from input: ImageInput) throws -> DocumentTable {
        var table = DocumentTable()
        let strings = try readStrings(from: input)
        for string in strings { _ = table.intern(string) }
        // Interning them again gives every string its saved id only when the saved table was sound.
        guard table.strings == strings else { throw ImageError.malformed("the string table") }
        let limit = Int(Int32.max)
        table.rowids = try input.readArray(Int64.self, limit: limit)
        let slots = table.rowids.count
        table.externalIDs = try readStrings(from: input)
        guard table.externalIDs.count == slots else { throw ImageError.malformed("external ids") }
        table.createdAts = try input.readArray(Double.self, limit: slots)
        table.languages = try input.readArray(Int32.self, limit: slots)
        table.sourceTypes = try input.readArray(Int32.self, limit: slots)
        table.categories = try input.readArray(Int32.self, limit: slots)
        guard table.createdAts.count == slots, table.languages.count == slots, table.sourceTypes.count == slots,
            table.categories.count == slots
        else { throw ImageError.malformed("document columns") }
        let known = Int32(table.strings.count)
        func valid(_ id: Int32) -> Bool { id >= -1 && id < known }
        guard table.languages.allSatisfy(valid), table.sourceTypes.allSatisfy(valid),
            table.categories.allSatisfy(valid)
        else { throw ImageError.malformed("a document names an unknown string") }
        table.tagLists = try split(input, Int32.self, slots: slots) { $0 >= 0 && $0 < known }
        table.metadataLists = try split(input, Int64.self, slots: slots) {
            $0 >> 32 >= 0 && $0 >> 32 < Int64(known) && Int32(truncatingIfNeeded: $0) >= 0
                && Int32(truncatingIfNeeded: $0) < known
        }
        guard let bySlot = IDMap(ids: table.rowids, values: (0..<Int32(slots)).map { $0 }) else {
            throw ImageError.malformed("a document twice")
        }
        table.slotByRowid = bySlot
        var perLanguage: [Int32: Int] = [:]
        for slot in 0..<slots {
            let rowid = table.rowids[slot]
            if rowid < 0 {
                table.freeSlots.append(Int32(slot))
                continue
            }
            let language = table.languages[slot]
            if language >= 0 { perLanguage[table.folded[Int(language)], default: 0] += 1 }
        }
        table.languageCounts = perLanguage
        table.freeSlots.reverse()
        return table
    }

    /// Strings as one UTF-8 buffer and the end offset of each (two large writes for any number of strings).
    private static func writeStrings(_ strings: [String], to output: ImageOutput) throws {
        var bytes: [UInt8] = []
        var ends: [Int64] = []
        ends.reserveCapacity(strings.count)
        for string in strings {
            bytes.append(contentsOf: string.utf8)
            ends.append(Int64(bytes.count))
        }
        try output.writeArray(ends)
        try output.writeArray(bytes)
    }

    private static func readStrings(from input: ImageInput) throws -> [String] {
        let ends = try input.readArray(Int64.self, limit: Int(Int32.max))
        let bytes = try input.readArray(UInt8.self, limit: Int(Int32.max))
        var start = 0
        var strings: [String] = []
        strings.reserveCapacity(ends.count)
        try bytes.withUnsafeBufferPointer { buffer in
            for end in ends {
                guard end >= start, end <= buffer.count else { throw ImageError.malformed("string offsets") }
                strings.append(String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<Int(end)]), as: UTF8.self))
                start = Int(end)
            }
        }
        return strings
    }

    /// Per-slot lists from their counts and flat values.
    private static func split<T: BitwiseCopyable & Sendable & Equatable>(
        _ input: ImageInput, _: T.Type, slots: Int, valid: (T) -> Bool
    ) throws -> PooledLists<T> {
        let counts = try input.readArray(Int32.self, limit: slots)
        let values = try input.readArray(T.self, limit: Int(Int32.max))
        guard counts.count == slots, values.allSatisfy(valid), let lists = PooledLists(counts: counts, values: values)
        else { throw ImageError.malformed("document lists") }
        return lists
    }
}
