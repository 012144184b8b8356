import Foundation

extension HushStore {
    /// The ids of the stored documents that `filter` lets through, in `order`: every document a person has
    /// kept, to list, page through or export, with or without a model.
    ///
    /// The filter is the one searches take (``SearchFilter``), so a list shows exactly the documents a
    /// filtered search could return. Read the documents themselves with ``documents(ids:)``, a page at a time.
    ///
    /// ```swift
    /// let ids = try await store.documentIDs(matching: SearchFilter(tagsAny: ["work"]))
    /// for page in stride(from: 0, to: ids.count, by: 100) {
    ///     for stored in try await store.documents(ids: Array(ids[page..<min(page + 100, ids.count)])) {
    ///         print(stored.document.id, stored.document.title ?? "")
    ///     }
    /// }
    /// ```
    ///
    /// - Complexity: O(documents × predicates) to filter, O(n log n) to order the `n` that pass (no SQL).
    public func documentIDs(matching filter: SearchFilter = SearchFilter(), order: DocumentOrder = .newestFirst)
        async throws -> [String]
    {
        memory.read { $0.documentIDs(filter, order: order) }
    }

    /// The stored documents with these ids, in the order given; ids the store does not hold are left out (so
    /// the result is shorter), and an id given twice is returned twice.
    ///
    /// ```swift
    /// let notes = try await store.documents(ids: ["note-41", "note-42"])
    /// ```
    ///
    /// - Complexity: O(ids × log documents), one read transaction.
    public func documents(ids: [String]) async throws -> [StoredDocument] {
        try database.documents(ids: ids)
    }
}
