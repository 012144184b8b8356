import Foundation
import HushTestSupport
import Testing

@testable import Hush

/// Markdown notes are stored as the text a person reads: every kind of markup goes, nothing they wrote goes
/// with it.
@Suite struct MarkdownTextTests {
    @Test func emphasisLosesItsMarkersOnlyWhereItPairs() {
        #expect(
            MarkdownText.inline("Plant **tomatoes** and *basil*, __not__ _mint_.")
                == "Plant tomatoes and basil, not mint.")
        #expect(MarkdownText.inline("***very*** ~~cancelled~~ **重要**的事") == "very cancelled 重要的事")
        // Not emphasis: arithmetic, identifiers, approximations, a lone star.
        #expect(MarkdownText.inline("5 * 3 = 15 and 2 * 4") == "5 * 3 = 15 and 2 * 4")
        #expect(MarkdownText.inline("rename snake_case_name to __init__") == "rename snake_case_name to init")
        #expect(MarkdownText.inline("~5 minutes, about ~10 km") == "~5 minutes, about ~10 km")
        #expect(MarkdownText.inline("Terms apply*") == "Terms apply*")
        #expect(MarkdownText.inline("an *unclosed emphasis") == "an *unclosed emphasis")
    }

    @Test func codeSpansAndEscapesAreTakenAsWritten() {
        #expect(MarkdownText.inline("run `rm -rf *_tmp_*` now") == "run rm -rf *_tmp_* now")
        #expect(MarkdownText.inline("``a `tick` inside``") == "a `tick` inside")
        #expect(MarkdownText.inline("price \\*not\\* bold, a \\_ and \\\\") == "price *not* bold, a _ and \\")
        #expect(MarkdownText.inline("an unclosed ` backtick") == "an unclosed ` backtick")
    }

    @Test func linksOfEveryKindKeepTheirText() {
        #expect(
            MarkdownText.inline("See [the **plan**](https://example.com/plan) and [beds](beds.md).")
                == "See the plan (https://example.com/plan) and beds.")
        #expect(
            MarkdownText.inline("Ask [[Anna]] about [[Budget 2027|the budget]]; ![[diagram.png]]")
                == "Ask Anna about the budget; diagram.png")
        #expect(
            MarkdownText.inline("Mail <anna@example.com> or see <https://example.com>; 3 < 4 > 2")
                == "Mail anna@example.com or see https://example.com; 3 < 4 > 2")
        #expect(
            MarkdownText.inline("- [ ] still a task, [x] done, [note] as written")
                == "- [ ] still a task, [x] done, [note] as written")
    }

    @Test func blocksKeepTheirTextAndLoseTheirMarkup() {
        #expect(MarkdownText.line("* oat milk", afterText: false) == "* oat milk")
        #expect(MarkdownText.line("  + **eggs**", afterText: true) == "  + eggs")
        #expect(MarkdownText.line("- [ ] Anna to *email* finance", afterText: true) == "- [ ] Anna to email finance")
        #expect(MarkdownText.line("> > Quoted **twice**", afterText: false) == "Quoted twice")
        #expect(MarkdownText.line("> [!warning]- Check the ==deadline==", afterText: false) == "Check the deadline")
        #expect(MarkdownText.line("> [!NOTE]", afterText: false) == nil)
        #expect(MarkdownText.line("if a == b and c=d", afterText: false) == "if a == b and c=d")
        #expect(MarkdownText.line("| Retro | *me* | Nov 20 |", afterText: false) == "Retro | me | Nov 20")
        #expect(MarkdownText.line("| a \\| b | c |", afterText: false) == "a | b | c")
        #expect(MarkdownText.line("|-------|:---:|", afterText: true) == nil)
        #expect(MarkdownText.line("--- | ---", afterText: true) == nil)
        #expect(MarkdownText.line("***", afterText: false) == nil)
        #expect(MarkdownText.line(" - - -", afterText: false) == nil)
        #expect(MarkdownText.line("=====", afterText: true) == nil)
        #expect(MarkdownText.line("=====", afterText: false) == "=====")
        #expect(MarkdownText.line("1. first *step*", afterText: false) == "1. first step")
    }

    @Test func aPlannerNoteIsStoredAsItReads() throws {
        let folder = try TemporaryDirectory()
        let note = """
            # **Standup**: Apollo

            > Budget is *frozen* until finance signs off.

            * oat milk
            * eggs (a dozen)
            - [ ] Ask [[Anna]] about the `Q1_budget`

            ---

            | Topic | Owner |
            |-------|-------|
            | Retro | me |
            """
        let file = try folder.write("standup.md", note)
        let document = try #require(try readAll([file]).documents.first)
        #expect(document.title == "Standup: Apollo")
        #expect(
            document.body
                == "Budget is frozen until finance signs off.\n\n* oat milk\n* eggs (a dozen)\n"
                + "- [ ] Ask Anna about the Q1_budget\n\n\nTopic | Owner\nRetro | me")
    }
}
