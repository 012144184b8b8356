import Testing

@testable import Hush

@Suite struct TextDocumentPreparerTests {
    @Test func preparesCleanedTextLanguageAndChunks() {
        let preparer = DocumentPreparer(embedder: HashingEmbedder())
        let document = Document(
            id: "p1", title: "Weekend\tplans", body: "Ask @ana about the cabin: https://example.com/cabin  photos.",
            quoted: "We could hike to the lake if the weather holds.")
        let prepared = preparer.prepare(document)
        #expect(
            prepared.cleanedText
                == "Ask @user about the cabin: [link] photos.\n\nQuoted: We could hike to the lake if the weather holds."
        )
        #expect(prepared.language == "en")
        #expect(prepared.chunks.count == 1)
        #expect(prepared.chunks[0].text == "Weekend plans\n\n" + prepared.cleanedText)
        #expect(prepared.chunks[0].range == 0..<prepared.cleanedText.utf16.count)
        #expect(prepared.chunks[0].tokenCount == HashingEmbedder().tokenCount(prepared.chunks[0].text))
    }

    @Test func givenLanguageWinsOverDetection() {
        let preparer = DocumentPreparer(embedder: HashingEmbedder())
        let prepared = preparer.prepare(
            Document(id: "x", body: "The meeting was moved to Thursday afternoon.", language: "fr"))
        #expect(prepared.language == "fr")
        let detected = preparer.prepare(Document(id: "y", body: "La réunion a été déplacée à jeudi après-midi."))
        #expect(detected.language == "fr")
    }

    @Test func chunkSizesFollowTheEmbedderWindow() {
        let embedder = HashingEmbedder(maxTokens: 32)
        let body = (0..<30).map { "Line \($0) of the long meeting transcript goes here." }.joined(separator: " ")
        let prepared = DocumentPreparer(embedder: embedder).prepare(Document(id: "t", body: body))
        #expect(prepared.chunks.count > 5)
        #expect(prepared.chunks.allSatisfy { $0.tokenCount <= 32 })
    }

    @Test func fieldsAreCleanedAndChunked() {
        let preparer = DocumentPreparer(embedder: HashingEmbedder())
        let prepared = preparer.prepare(
            Document(
                id: "m1", title: "Standup", body: "",
                fields: [.init(label: "Attendees", value: "Ana,\n Bo  and @carla"), .init(label: "Notes", value: "  ")])
        )
        #expect(prepared.chunks.map(\.text) == ["Standup\n\nAttendees: Ana, Bo and @user"])
    }
}
