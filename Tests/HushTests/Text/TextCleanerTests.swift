import Testing

@testable import Hush

@Suite struct TextCleanerTests {
    let cleaner = TextCleaner()

    @Test func urlsWithSchemesBecomeLinks() {
        #expect(
            cleaner.clean("Read this: https://example.com/blog/2024/03/why-sleep-matters?utm_source=x#top today")
                == "Read this: [link] today")
        #expect(
            cleaner.clean("old site http://intranet.local:8080/wiki, new one soon") == "old site [link], new one soon")
        #expect(cleaner.clean("HTTPS://EXAMPLE.ORG/A") == "[link]")
        #expect(cleaner.clean("see www.bbc.co.uk/news.") == "see [link].")
    }

    @Test func trailingPunctuationAndBracketsStayOutsideTheLink() {
        #expect(cleaner.clean("(see https://example.com/a)") == "(see [link])")
        #expect(
            cleaner.clean("the wiki (https://en.wikipedia.org/wiki/Swift_(programming_language)) says")
                == "the wiki ([link]) says")
        #expect(cleaner.clean("[notes](https://example.com/notes) are up") == "[notes]([link]) are up")
        #expect(cleaner.clean("\"https://example.com\"!") == "\"[link]\"!")
    }

    @Test func bareDomainsWithPathsOrCommonEndingsBecomeLinks() {
        #expect(cleaner.clean("docs at github.com/apple/swift-format") == "docs at [link]")
        #expect(cleaner.clean("mail me via proton.me or visit example.com.") == "mail me via [link] or visit [link].")
        // Not domains: file names, versions, abbreviations, decimals, code.
        #expect(
            cleaner.clean("open notes.txt and Node.js, e.g. version 3.14")
                == "open notes.txt and Node.js, e.g. version 3.14")
    }

    @Test func mentionsBecomeUserButEmailsStay() {
        #expect(cleaner.clean("@ana thanks, and cc @bo_smith!") == "@user thanks, and cc @user!")
        #expect(cleaner.clean("write to ana@example.com about it") == "write to ana@example.com about it")
        #expect(cleaner.clean("(@dana) and @eve@mastodon.social said hi") == "(@user) and @user said hi")
        #expect(cleaner.clean("meet @ 5pm") == "meet @ 5pm")
    }

    @Test func replacementsCanBeTurnedOff() {
        let keep = TextCleaner(replaceURLs: false, replaceMentions: false)
        #expect(keep.clean("@ana see https://example.com/x") == "@ana see https://example.com/x")
    }

    @Test func whitespaceCollapsesButParagraphsSurvive() {
        let raw = "  First line\twith   tabs.  \r\nSecond line.\n\n\n   \n\tNew paragraph here.  \n\n\n"
        #expect(cleaner.clean(raw) == "First line with tabs.\nSecond line.\n\nNew paragraph here.")
    }

    @Test func controlAndInvisibleCharactersAreRemoved() {
        let raw = "Bell\u{07}less te\u{200B}xt\u{0000} with\u{00A0}nbsp and \u{FEFF}bom"
        #expect(cleaner.clean(raw) == "Bellless text with nbsp and bom")
        // Emoji sequences keep their zero-width joiner.
        #expect(cleaner.clean("family 👩‍👩‍👧 time") == "family 👩‍👩‍👧 time")
    }

    @Test func documentQuotedTextIsAppendedAsAParagraph() {
        let post = Document(
            id: "p1", body: "So true @ana! https://t.co/abc", quoted: "Sleep is  a superpower.\n\nReally.")
        #expect(cleaner.clean(post) == "So true @user! [link]\n\nQuoted: Sleep is a superpower.\n\nReally.")
        #expect(cleaner.clean(Document(id: "p2", body: "   ", quoted: "Only the quote.")) == "Quoted: Only the quote.")
        #expect(cleaner.clean(Document(id: "p3", body: "No quote.", quoted: "  ")) == "No quote.")
    }

    @Test func emptyAndWhitespaceOnlyTextCleansToEmpty() {
        #expect(cleaner.clean("") == "")
        #expect(cleaner.clean(" \n\t\n ") == "")
    }

    /// The byte check that lets most words skip the link parser must never skip a link: on words of every kind
    /// (links with and without schemes, in any case, non-ASCII domains, words that only look close), whenever
    /// `linkRange` finds a link the check said one might be there; and plain words ending a sentence are skipped.
    @Test func theByteCheckBeforeTheLinkParserNeverSkipsALink() {
        let words = [
            "https://example.com", "HTTP://A.B/c", "ftp://files.example.org/x", "(https://x.io/a).", "www.-x",
            "WWW.example", "[x](https://example.com/n)", "github.com/apple/swift", "proton.me", "example.com.",
            "例子.中国/路径", "docs.example.org", "bücher.de", "e.g.", "U.S.", "3.14", "v1.2.3", "file.txt",
            "end.", "Hello,", "say:", "a:b", "www", "https:", "https:/", "://", "@alice", "x.y", ".com", "a.-b",
        ]
        var links = 0
        for word in words where TextCleaner.linkRange(in: word) != nil {
            links += 1
            #expect(TextCleaner.mayHoldLink(word.utf8), "\(word)")
        }
        #expect(links >= 10)
        for word in ["end.", "Hello,", "say:", "(see", "well...", "https:", "a:b", "3.", "don't"] {
            #expect(!TextCleaner.mayHoldLink(word.utf8), "\(word)")
        }
        #expect(TextCleaner.mayHoldScheme("(HTTPS://x".utf8) && TextCleaner.mayHoldScheme("Www.x".utf8))
        #expect(!TextCleaner.mayHoldScheme("example.com/path".utf8))
        // What cleaning and the keyword extras give is unchanged by the check.
        #expect(
            cleaner.clean("See WWW.Example.org, e.g. the 3.14 notes. Thanks @ana.")
                == "See [link], e.g. the 3.14 notes. Thanks @user.")
        #expect(cleaner.replacedSpans(in: "Plain words. Nothing else here.").isEmpty)
        #expect(cleaner.replacedSpans(in: "via 例子.中国/路径 and @bo") == ["例子.中国/路径", "@bo"])
    }

    /// Every replacement is recorded where its placeholder landed, so that any part of the cleaned text can be
    /// shown as written: restoring the whole text gives what cleaning without replacements gives, and restoring
    /// a part gives that part of it. A `[link]` the person typed is left as it is.
    @Test(arguments: [
        Document(id: "a", body: "Thanks @maria!  See https://example.com/notes?id=4\n\n\nand (www.bbc.co.uk/news)."),
        Document(id: "b", body: "  @ana \t@bo\n@cy", quoted: "via example.com/x and [link] typed by hand @dee"),
        Document(id: "c", body: "", quoted: "Only a quote with https://t.co/abc"),
        Document(id: "d", body: "Nothing to replace here.\nSecond line."),
        Document(id: "e", body: "家族 👩‍👩‍👧 @李 写了 例子.中国/路径 。"),
    ])
    func replacementsAreRecordedWhereTheirPlaceholdersLand(document: Document) {
        let asWritten = TextCleaner(replaceURLs: false, replaceMentions: false)
        let (text, replacements) = cleaner.cleanWithReplacements(document)
        #expect(text == cleaner.clean(document))
        let whole = TextCleaner.restore(text, at: 0..<text.utf16.count, from: replacements)
        #expect(whole == asWritten.clean(document))
        for replacement in replacements {
            let units = Array(text.utf16)[replacement.range]
            #expect(["[link]", "@user"].contains(String(decoding: units, as: UTF16.self)))
        }
        // Each line on its own: the line as written.
        var start = 0
        let shownLines = whole.components(separatedBy: "\n")
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let range = start..<(start + line.utf16.count)
            #expect(TextCleaner.restore(line, at: range, from: replacements) == shownLines[index])
            start = range.upperBound + 1
        }
        let (single, singleReplacements) = cleaner.cleanSingleLineWithReplacements(document.body)
        #expect(single == cleaner.cleanSingleLine(document.body))
        #expect(
            TextCleaner.restore(single, at: 0..<single.utf16.count, from: singleReplacements)
                == asWritten.cleanSingleLine(document.body))
    }
}
