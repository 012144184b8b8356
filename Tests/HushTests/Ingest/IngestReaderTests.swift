import Foundation
import HushTestSupport
import Testing

@testable import Hush

@Suite struct IngestReaderTests {
    @Test func foldersAreReadRecursivelySortedWithoutHiddenFiles() throws {
        let folder = try TemporaryDirectory()
        try folder.write("zeta.txt", "The last note in the folder.\n")
        try folder.write("alpha.md", "# Alpha\n\nFirst note.")
        try folder.write("sub/mid.txt", "A note in a subfolder.")
        try folder.write(".hidden.txt", "Never read.")
        try folder.write(".git/HEAD.txt", "Never read either.")
        try folder.write("photo.png", Data([0x89, 0x50, 0x4E, 0x47]))
        let result = try readAll([folder.url])
        // Ids start with the folder's own name, so two folders' notes.txt never collide.
        let name = folder.url.lastPathComponent
        #expect(result.documents.map(\.id) == ["\(name)/alpha.md", "\(name)/sub/mid.txt", "\(name)/zeta.txt"])
        #expect(result.skipped.count == 1)
        #expect(result.skipped.first?.path.hasSuffix("photo.png") == true)
        #expect(result.skipped.first?.reason.contains("unsupported file type .png") == true)
    }

    @Test func plainTextUsesTheFileNameAsTitle() throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(
            "Trip to Lisbon.txt", "\u{FEFF}We took the tram up the hill.\n\nThe view was worth it.\n")
        let result = try readAll([file], reader: DocumentReader(sourceType: "note"))
        let document = try #require(result.documents.first)
        #expect(document.id == "Trip to Lisbon.txt")
        #expect(document.title == "Trip to Lisbon")
        #expect(document.body == "We took the tram up the hill.\n\nThe view was worth it.")
        #expect(document.sourceType == "note")
        #expect(document.createdAt != nil)
    }

    @Test func markdownTitleComesFromTheFirstHeadingAndMarkupIsReduced() throws {
        let folder = try TemporaryDirectory()
        let markdown = """
            Intro line before the title.

            # Garden plan

            ## Spring
            Plant **tomatoes** and [basil](https://example.com/basil) near the wall.
            See [the beds](beds.md), [](https://example.com/empty) and [www.example.org](www.example.org).
            ![the bed](bed.jpg)
            #hashtag stays text
            ```
            # not a heading inside code
            ```
            """
        let file = try folder.write("garden.md", markdown)
        let document = try #require(try readAll([file]).documents.first)
        #expect(document.title == "Garden plan")
        #expect(
            document.body
                == "Intro line before the title.\n\n\nSpring\nPlant tomatoes and basil (https://example.com/basil) near the wall."
                + "\nSee the beds, https://example.com/empty and www.example.org.\nthe bed\n#hashtag stays text"
                + "\n# not a heading inside code"
        )
    }

    @Test func markdownFrontMatterIsRead() throws {
        let folder = try TemporaryDirectory()
        let markdown =
            "---\ntitle: \"Reading list\"\ntags: [books, winter]\ndate: 2024-01-15\ncategory: personal\n---\n# Ignored heading\n\nFinish the Tolstoy novel."
        let document = try #require(try readAll([try folder.write("list.markdown", markdown)]).documents.first)
        #expect(document.title == "Reading list")
        #expect(document.tags == ["books", "winter"])
        #expect(document.category == "personal")
        #expect(document.createdAt == Date(timeIntervalSince1970: 1_705_276_800))
        #expect(document.body == "Ignored heading\n\nFinish the Tolstoy novel.")
    }

    @Test func markdownFrontMatterKeepsEveryKeyAsNoteAppsWriteThem() throws {
        let folder = try TemporaryDirectory()
        let note = """
            ---
            created: 2026-11-21 09:15
            updated: 2026-11-22T08:00:00Z
            tags:
              - cooking
              - "vegetarian"
            aliases:
            - soup
            # a comment line
            mood: calm
            summary: >
              Soup for
              cold evenings.
            people:
              cook: Ana
            ---
            Lentil soup with cumin and lemon.
            """
        let therapy = """
            ---
            title: Therapy session
            tags: [health, 'therapy']
            ---

            # Therapy session

            We talked about my fear of flying.
            """
        let files = [try folder.write("soup.md", note), try folder.write("therapy.md", therapy)]
        let result = try readAll(files)
        #expect(result.skipped.isEmpty)
        let soup = try #require(result.documents.first { $0.id == "soup.md" })
        #expect(soup.tags == ["cooking", "vegetarian"])
        #expect(soup.createdAt == RecordDate.parse("2026-11-21T09:15:00Z"))
        #expect(soup.updatedAt == RecordDate.parse("2026-11-22T08:00:00Z"))
        #expect(
            soup.metadata == [
                "aliases": "soup", "mood": "calm", "summary": "Soup for cold evenings.", "people": "cook: Ana",
            ])
        #expect(soup.body == "Lentil soup with cumin and lemon.")
        #expect(soup.title == "soup")
        // The title written again as the note's first heading is not repeated in its text.
        let session = try #require(result.documents.first { $0.id == "therapy.md" })
        #expect(session.title == "Therapy session")
        #expect(session.tags == ["health", "therapy"])
        #expect(session.body == "We talked about my fear of flying.")
    }

    @Test func aFrontMatterDateThatCannotBeReadSkipsOnlyThatNote() throws {
        let folder = try TemporaryDirectory()
        let template = try folder.write("template.md", "---\ndate: {{date}}\n---\nA note from a template.")
        let fine = try folder.write("fine.md", "---\ndate: 2026-01-02\n---\nA dated note.")
        let result = try readAll([template, fine])
        #expect(result.documents.map(\.id) == ["fine.md"])
        #expect(result.skipped.count == 1)
        #expect(result.skipped.first?.path == template.path)
        let reason = try #require(result.skipped.first?.reason)
        #expect(reason.hasPrefix("front matter: date \"{{date}}\" is not a date: use yyyy-MM-dd"), "\(reason)")
    }

    @Test func jsonLinesRecordsMapEveryField() throws {
        let folder = try TemporaryDirectory()
        let lines = [
            #"{"id":"p1","title":"Sleep","text":"Sleep is a superpower.","tags":["health","sleep"],"category":"wellbeing","metadata":{"author":"ana","likes":42,"pinned":true,"geo":{"lat":1.5}},"date":"2024-03-05","language":"en","type":"post","quoted":"Rest more."}"#,
            #"{"id":7,"text":"Standup notes.","tags":"work, daily ,","date":"2024-03-05T14:30:00+01:00","fields":[{"label":"Attendees","value":"Ana, Bo"},["Room","4B"]],"mood":"calm"}"#,
            #"{"body":"No id here, so the line number names it.","created_at":1709596800}"#,
        ]
        let file = try folder.write("posts.jsonl", lines.joined(separator: "\n") + "\n")
        let result = try readAll([file], reader: DocumentReader(sourceType: "import"))
        #expect(result.skipped.isEmpty)
        #expect(result.documents.count == 3)
        let first = result.documents[0]
        #expect(first.id == "p1")
        #expect(first.title == "Sleep")
        #expect(first.body == "Sleep is a superpower.")
        #expect(first.tags == ["health", "sleep"])
        #expect(first.category == "wellbeing")
        #expect(first.metadata == ["author": "ana", "likes": "42", "pinned": "true", "geo": #"{"lat":1.5}"#])
        #expect(first.createdAt == Date(timeIntervalSince1970: 1_709_596_800))
        #expect(first.language == "en")
        #expect(first.sourceType == "post")
        #expect(first.quoted == "Rest more.")
        let second = result.documents[1]
        #expect(second.id == "7")
        #expect(second.tags == ["work", "daily"])
        #expect(second.createdAt == Date(timeIntervalSince1970: 1_709_645_400))
        #expect(second.fields == [.init(label: "Attendees", value: "Ana, Bo"), .init(label: "Room", value: "4B")])
        #expect(second.metadata == ["mood": "calm"])
        #expect(second.sourceType == "import")
        let third = result.documents[2]
        #expect(third.id == "posts.jsonl#3")
        #expect(third.body == "No id here, so the line number names it.")
        #expect(third.createdAt == Date(timeIntervalSince1970: 1_709_596_800))
    }

    @Test func badJSONLinesAreSkippedWithLineNumbersAndTheRestIsRead() throws {
        let folder = try TemporaryDirectory()
        var data = Data()
        func line(_ text: String) { data.append(contentsOf: Array(text.utf8) + [0x0A]) }
        line(#"{"id":"a","text":"First good record."}"#)  // 1
        line(#"{"id":"b","text":"missing brace""#)  // 2
        line("")  // 3: blank, ignored
        line(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))  // 4
        // 5: an invalid two-byte sequence (C3 28).
        data.append(contentsOf: Array(#"{"id":"c","text":"bad "#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8) + [0x0A])
        line("[1, 2, 3]")  // 6
        line(#"{"id":"d","title":"Title only"}"#)  // 7: a document of its title
        line(#"{"id":"d2","title":"  "}"#)  // 8
        line(#"{"id":"e","text":"   "}"#)  // 9
        line(#"{"id":"f","text":"Last good record."}"#)  // 10
        line(
            #"{"id":"g","text":"nested","metadata":"# + String(repeating: #"{"a":"#, count: 40) + "1"
                + String(repeating: "}", count: 40) + "}")  // 11
        let file = try folder.write("mixed.jsonl", data)
        let result = try readAll([file])
        #expect(result.documents.map(\.id) == ["a", "d", "f"])
        #expect(result.documents[1].title == "Title only" && result.documents[1].body.isEmpty)
        #expect(result.skipped.map(\.line) == [2, 4, 5, 6, 8, 9, 11])
        #expect(
            result.skipped.map(\.reason) == [
                "malformed JSON", "JSON nested deeper than 32 levels", "not valid UTF-8", "not a JSON object",
                "record has no text or title", "record has no text or title", "JSON nested deeper than 32 levels",
            ])
        #expect(result.skipped.allSatisfy { $0.path == file.path })
    }

    @Test func csvRowsWithQuotingAndMetadata() throws {
        let folder = try TemporaryDirectory()
        let csv =
            "\u{FEFF}id,Title,body,tags,category,date,language,author\r\n"
            + "n1,Groceries,\"Milk, eggs and \"\"good\"\" bread\",\"food, weekly\",home,2024-03-05,en,ana\r\n"
            + "n2,Poem,\"First line\nsecond line\",,,,,bo\r\n"
            + "n3,Ragged,too,few\r\n"
            + "n4,Title only,,x,y,,,\r\n"
            + "n5,,,x,y,,,\r\n"
            + ",Untitled id,Row without an id.,,,,,\r\n"
        let file = try folder.write("notes.csv", csv)
        let result = try readAll([file])
        #expect(result.documents.map(\.id) == ["n1", "n2", "n4", "notes.csv#8"])
        let first = result.documents[0]
        #expect(first.title == "Groceries")
        #expect(first.body == "Milk, eggs and \"good\" bread")
        #expect(first.tags == ["food", "weekly"])
        #expect(first.category == "home")
        #expect(first.createdAt == Date(timeIntervalSince1970: 1_709_596_800))
        #expect(first.language == "en")
        #expect(first.metadata == ["author": "ana"])
        #expect(result.documents[1].body == "First line\nsecond line")
        // The quoted line break in n2 makes the ragged row start on line 5 and the empty-text row on line 6.
        #expect(
            result.skipped == [
                SkippedInput(path: file.path, line: 5, reason: "row has 4 fields, the header has 8"),
                SkippedInput(path: file.path, line: 7, reason: "record has no text or title"),
            ])
    }

    @Test func csvWithoutATextColumnOrWithAnOpenQuoteIsReported() throws {
        let folder = try TemporaryDirectory()
        let noText = try folder.write("people.csv", "name,email\nAna,ana@example.com\n")
        let openQuote = try folder.write("open.csv", "id,text\n1,fine\n2,\"never closed\n3,lost\n")
        let result = try readAll([noText, openQuote])
        #expect(result.documents.map(\.id) == ["1"])
        #expect(result.skipped.count == 2)
        #expect(result.skipped[0].line == 1)
        #expect(result.skipped[0].reason.hasPrefix("header row has no text, body or content column"))
        #expect(
            result.skipped[1] == SkippedInput(path: openQuote.path, line: 3, reason: "quoted field is never closed"))
    }

    /// Spreadsheets where the decimal mark is a comma write semicolons between columns; a .tsv file has tabs.
    @Test func csvColumnsAreSeparatedAsTheHeaderShows() throws {
        let folder = try TemporaryDirectory()
        let semicolons = try folder.write(
            "einkauf.csv",
            "\u{FEFF}id;title;text;tags\r\ne1;Einkauf;\"Milch, Brot; Butter\";home,food\r\ne2;Arzt;Termin um 9,30 Uhr;health\r\n"
        )
        let tabs = try folder.write("notes.tsv", "text\ttags\nA note, with a comma; and a semicolon\twork\n")
        let commas = try folder.write("plain.csv", "id,text\np1,\"one; two\"\n")
        let result = try readAll([semicolons, tabs, commas])
        #expect(result.skipped.isEmpty, "\(result.skipped)")
        #expect(result.documents.map(\.id) == ["e1", "e2", "notes.tsv#2", "p1"])
        #expect(result.documents[0].title == "Einkauf")
        #expect(result.documents[0].body == "Milch, Brot; Butter")
        #expect(result.documents[0].tags == ["home", "food"])
        #expect(result.documents[1].body == "Termin um 9,30 Uhr")
        #expect(result.documents[2].body == "A note, with a comma; and a semicolon")
        #expect(result.documents[2].tags == ["work"])
        #expect(result.documents[3].body == "one; two")
        // Without a text column under any separator, the reason says which separators were tried.
        let none = try folder.write("people.csv", "name;email\nAna;ana@example.com\n")
        let reason = try readAll([none]).skipped.first?.reason ?? ""
        #expect(reason.contains("found: name;email") && reason.contains("commas, semicolons or tabs"), "\(reason)")
    }

    @Test func badFilesAreSkippedAndTheRestIsRead() throws {
        let folder = try TemporaryDirectory()
        try folder.write("a-empty.txt", "")
        try folder.write("b-blank.md", "  \n\n ")
        try folder.write("c-binary.txt", Data([0x48, 0x69, 0x00, 0x01, 0x02]))
        try folder.write("d-latin1.md", Data([0x43, 0x61, 0x66, 0xE9, 0x20, 0x6E, 0x6F, 0x69, 0x72]))
        try folder.write("e-empty.jsonl", "\n\n")
        try folder.write("f-binary.jsonl", Data([0x00, 0x00, 0x7B, 0x7D, 0x0A]))
        try folder.write("g-empty.csv", "")
        try folder.write("h-good.txt", "The one good file.")
        let result = try readAll([folder.url])
        #expect(result.documents.map(\.id) == [folder.url.lastPathComponent + "/h-good.txt"])
        let reasons = Dictionary(
            uniqueKeysWithValues: result.skipped.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0.reason) })
        #expect(
            reasons == [
                "a-empty.txt": "empty file", "b-blank.md": "empty file",
                "c-binary.txt": "binary file (contains NUL bytes)", "d-latin1.md": "not valid UTF-8 text",
                "e-empty.jsonl": "empty file", "f-binary.jsonl": "binary file (contains NUL bytes)",
                "g-empty.csv": "empty file",
            ])
        #expect(result.skipped.allSatisfy { $0.line == nil })
    }

    @Test func missingPathsThrowBeforeAnythingIsRead() throws {
        let folder = try TemporaryDirectory()
        let good = try folder.write("good.txt", "Fine.")
        let missing = folder.url.appendingPathComponent("nope.txt")
        var batches = 0
        #expect(throws: IngestError.notFound(path: missing.path)) {
            _ = try DocumentReader().read([good, missing]) { _ in batches += 1 }
        }
        #expect(batches == 0)
    }

    @Test func documentsArriveInBatchesAndBodyErrorsStopReading() throws {
        let folder = try TemporaryDirectory()
        let lines = (1...10).map { #"{"id":"r\#($0)","text":"Record number \#($0)."}"# }
        let file = try folder.write("ten.jsonl", lines.joined(separator: "\n"))
        let result = try readAll([file], batchSize: 3)
        #expect(result.batches == [3, 3, 3, 1])
        #expect(result.documents.map(\.id) == (1...10).map { "r\($0)" })

        struct Stop: Error {}
        var calls = 0
        #expect(throws: Stop.self) {
            _ = try DocumentReader().read([file], batchSize: 4) { _ in
                calls += 1
                throw Stop()
            }
        }
        #expect(calls == 1)
    }

    @Test func linesAndRowsSpanningReadBlocksAreIntact() throws {
        // Records larger than and straddling the 1 MiB read blocks.
        let folder = try TemporaryDirectory()
        let long = String(repeating: "word ", count: 300_000)  // 1.5 MB
        var jsonl = ""
        var csv = "id,text\n"
        for index in 0..<5 {
            jsonl += #"{"id":"j\#(index)","text":"\#(long)\#(index)"}"# + "\n"
            csv += "c\(index),\"\(long)\n\(index)\"\n"
        }
        let result = try readAll([try folder.write("big.jsonl", jsonl), try folder.write("big.csv", csv)])
        #expect(result.skipped.isEmpty)
        #expect(result.documents.map(\.id) == ["j0", "j1", "j2", "j3", "j4", "c0", "c1", "c2", "c3", "c4"])
        let fourthEnds = result.documents[3].body.hasSuffix("word 3")
        let fourthLength = result.documents[3].body.utf8.count
        let lastEnds = result.documents[9].body.hasSuffix("word \n4")
        #expect(fourthEnds)
        #expect(fourthLength == long.utf8.count + 1)
        #expect(lastEnds)
    }

    @Test func recordDatesInSeveralForms() {
        #expect(RecordDate.parse("2024-03-05") == Date(timeIntervalSince1970: 1_709_596_800))
        #expect(RecordDate.parse("2024-03-05T14:30:00Z") == Date(timeIntervalSince1970: 1_709_649_000))
        #expect(RecordDate.parse("2024-03-05 14:30") == Date(timeIntervalSince1970: 1_709_649_000))
        #expect(RecordDate.parse("2024-03-05T14:30:00.250-02:00") == Date(timeIntervalSince1970: 1_709_656_200.25))
        #expect(RecordDate.parse("1709596800") == Date(timeIntervalSince1970: 1_709_596_800))
        #expect(RecordDate.parse("2024-02-30") == nil)
        #expect(RecordDate.parse("March 5") == nil)
        #expect(RecordDate.parse("2024-03-05T25:00") == nil)
    }

    /// What an export writes reads back as the same `Date`, to the last bit, in few digits.
    @Test func exactDatesReadBackAsTheSameDate() throws {
        let instants: [Double] = [
            1_709_596_800, 1_709_656_200.25, 1_764_283_469.381_480_693_817_138_67, -1_000_000.125, -0.5,
            1_764_283_469.999_999_9, 0.000_001,
            try #require(RecordDate.parse("0001-01-01")).timeIntervalSince1970 + 0.75,
        ]
        for seconds in instants {
            let date = Date(timeIntervalSince1970: seconds)
            let text = RecordDate.formatExact(date)
            #expect(RecordDate.parse(text) == date, "\(text)")
            #expect(text.hasPrefix(String(RecordDate.format(date).dropLast())))
        }
        #expect(RecordDate.formatExact(Date(timeIntervalSince1970: 1_709_656_200.25)) == "2024-03-05T16:30:00.25Z")
        #expect(RecordDate.formatExact(Date(timeIntervalSince1970: 1_709_596_800)) == "2024-03-05T00:00:00Z")
        // A time of 2026 is exact to about 2e-7 s, so 7 digits do.
        #expect(RecordDate.formatExact(Date(timeIntervalSince1970: 1_764_283_469.381_480_693)).count <= 28)
    }

    @Test func recordDatesAreProlepticGregorianBothWays() async throws {
        for text in ["0001-01-01", "1500-01-01", "1582-10-10", "1970-01-01", "2024-02-29", "9999-12-31"] {
            let date = try #require(RecordDate.parse(text))
            #expect(RecordDate.format(date) == text + "T00:00:00Z")
            #expect(RecordDate.formatDay(date) == text)
        }
        #expect(RecordDate.parse("0000-01-01") == nil)
        #expect(RecordDate.parse("100000000000000000000") == nil)
        #expect(RecordDate.fromUnixSeconds(1e20) == nil && RecordDate.fromUnixSeconds(.nan) == nil)
        #expect(RecordDate.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        let store = try await HushStore.inMemory(embedder: HashingEmbedder())
        let far = Document(
            id: "far", body: "From the far future.", createdAt: Date(timeIntervalSince1970: 3e11))
        let summary = try await store.upsert([far, Document(id: "near", body: "Today.")])
        #expect(summary.added == 1 && summary.errors.map(\.id) == ["far"])
        #expect(summary.errors.first?.reason.contains("0001-01-01 and 9999-12-31") == true)
    }

    // MARK: Text versus binary, and text in UTF-16

    /// A NUL byte in one record of a text file skips that record only; binary data is still a whole file.
    @Test func aNULInOneRecordCostsThatRecordOnly() throws {
        let folder = try TemporaryDirectory()
        try folder.write("log.csv", "id,text\nr-1,First entry.\nr-2,Second\u{0}entry.\nr-3,Third entry.\n")
        try folder.write("log.jsonl", #"{"id": "j-1", "text": "One\#u{0}"}"# + "\n" + #"{"id": "j-2", "text": "Two."}"#)
        try folder.write("note.txt", "Hello\u{0}world")
        try folder.write("zeros.txt", Data(repeating: 0, count: 64))
        try folder.write("image.md", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D]))
        let result = try readAll([folder.url])
        #expect(result.documents.map(\.id) == ["r-1", "r-3", "j-2"])
        let reasons = Dictionary(
            uniqueKeysWithValues: result.skipped.map {
                ("\(URL(fileURLWithPath: $0.path).lastPathComponent):\($0.line ?? 0)", $0.reason)
            })
        #expect(
            reasons == [
                "log.csv:3": "row contains NUL bytes", "log.jsonl:1": "line contains NUL bytes",
                "note.txt:0": "text contains a NUL byte (at byte 5); remove it to index the file",
                "zeros.txt:0": "binary file (contains NUL bytes)", "image.md:0": "binary file (contains NUL bytes)",
            ])
    }

    /// Text files, JSON Lines and CSV that start with a UTF-16 byte-order mark, in either byte order.
    @Test func utf16TextWithAByteOrderMarkIsRead() throws {
        func utf16(_ text: String, bigEndian: Bool) -> Data {
            var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
            for unit in text.utf16 {
                bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            }
            return Data(bytes)
        }
        let body = "Café ☕ 日記 𝄞 and 😀 on one line.\nA second line."
        for bigEndian in [false, true] {
            let folder = try TemporaryDirectory()
            try folder.write("diary.txt", utf16(body, bigEndian: bigEndian))
            try folder.write("plan.md", utf16("# Plan 计划\n\n" + body, bigEndian: bigEndian))
            try folder.write("posts.jsonl", utf16(#"{"id": "p-1", "text": "Bonjour 👋"}"# + "\n", bigEndian: bigEndian))
            try folder.write("rows.csv", utf16("id,text\nc-1,\"Zeile mit Ümlaut, 🐧\"\n", bigEndian: bigEndian))
            let result = try readAll([folder.url])
            #expect(result.skipped.isEmpty, "\(result.skipped)")
            let byID = Dictionary(uniqueKeysWithValues: result.documents.map { ($0.id, $0) })
            let name = folder.url.lastPathComponent
            #expect(byID["\(name)/diary.txt"]?.body == body)
            #expect(byID["\(name)/plan.md"]?.title == "Plan 计划")
            #expect(byID["\(name)/plan.md"]?.body == body)
            #expect(byID["p-1"]?.body == "Bonjour 👋")
            #expect(byID["c-1"]?.body == "Zeile mit Ümlaut, 🐧")
        }
    }

    /// The transcoder gives the same text wherever a block ends: inside a code unit, between the two halves of a
    /// surrogate pair, or after a lone surrogate (which becomes U+FFFD).
    @Test func utf16IsTranscodedAcrossEveryBlockBoundary() throws {
        let text = "a€𝄞b😀ü"
        for bigEndian in [false, true] {
            var bytes: [UInt8] = []
            for unit in Array(text.utf16) + [0xD800, 0x0041] {  // a lone high surrogate, then "A"
                bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            }
            bytes.append(0x42)  // an odd byte left at the end
            for cut in 0...bytes.count {
                var transcoder = try #require(
                    UTF16Transcoder(byteOrderMarkOf: bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]))
                var out: [UInt8] = []
                transcoder.transcode(bytes[..<cut], into: &out)
                transcoder.transcode(bytes[cut...], into: &out)
                transcoder.finish(into: &out)
                #expect(String(decoding: out, as: UTF8.self) == text + "\u{FFFD}A\u{FFFD}", "cut at \(cut)")
            }
        }
    }

    /// Two files whose names differ only in Unicode normal form would be one document: the second is skipped
    /// with the reason, and the rest of the folder is read.
    @Test func namesEqualUpToUnicodeNormalFormCostTheSecondFileOnly() throws {
        let folder = try TemporaryDirectory()
        try folder.write("cafe\u{301}.txt", "Notes typed on one laptop.")  // NFD
        try folder.write("caf\u{E9}.txt", "Notes typed on another.")  // NFC
        try folder.write("tea.txt", "Green tea at four.")
        let result = try readAll([folder.url])
        #expect(result.documents.count == 2)
        #expect(result.documents.contains { $0.id.hasSuffix("/tea.txt") })
        #expect(result.skipped.count == 1)
        #expect(result.skipped.first?.reason.contains("only in Unicode normal form") == true)
    }

    /// A Markdown note that holds only a heading (or a front-matter title) is a document with that title.
    @Test func aMarkdownNoteHoldingOnlyAHeadingIsThatHeading() throws {
        let folder = try TemporaryDirectory()
        try folder.write("todo.md", "# Call the dentist\n")
        try folder.write("meta.md", "---\ntitle: Quarterly review\ntags: work\n---\n")
        try folder.write("nothing.md", "---\ntags: work\n---\n")
        try folder.write("zero.md", "\n\n")
        let result = try readAll([folder.url])
        #expect(result.documents.map(\.title) == ["Quarterly review", "Call the dentist"])
        #expect(result.documents.allSatisfy { $0.body.isEmpty })
        #expect(result.skipped.map(\.reason) == ["no text or title besides its front matter", "empty file"])
    }
}
