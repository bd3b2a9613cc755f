import Testing

@testable import MediatorCommandLine

@Suite("batch: a line is a URL only when its first word is one")
struct BatchURLLineTests {
    @Test(
        "Tabs separate words as spaces do, and a first word decides",
        arguments: [
            ("Echo\techo\tu=http://x", "Echo", "echo\tu=http://x"),
            ("app://Echo/echo?a=1\t\t extra", "app://Echo/echo?a=1", "extra"),
            ("app://Echo/echo?q='it's'", "app://Echo/echo?q='it's'", ""),
            ("a \u{301}b", "a", "\u{301}b"),
        ])
    func firstWord(line: String, word: String, rest: String) {
        let split = BatchLine.firstWord(of: line)
        #expect(split.word == word)
        #expect(split.rest == rest)
    }

    @Test("A space or quote followed by a combining mark still separates or quotes")
    func combiningMarks() throws {
        #expect(try BatchLine.words("a \u{301}b") == ["a", "\u{301}b"])
        #expect(try BatchLine.words("'\u{301}x y'") == ["\u{301}x y"])
    }

    @Test("A parameter holding :// after tabs is a parameter, not a URL")
    func tabbedParameterWithURL() throws {
        let run = try Mediate.run(["--in-memory", "batch"], input: "Echo\techo\tu=http://x\nEcho echo\tv=ftp://y w=1\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.lines == [#"{"u":"http://x"}"#, #"{"v":"ftp://y","w":"1"}"#])
        #expect(run.error.isEmpty)
    }

    @Test("A URL line may be surrounded by tabs and spaces")
    func urlWithSurroundingBlanks() throws {
        let run = try Mediate.run(["--in-memory", "batch"], input: "\t app://Echo/echo?b=2\t \n")
        #expect(run.status == 0, "\(run)")
        #expect(run.line == #"{"b":"2"}"#)
    }

    @Test("A URL followed by more words is a usage error naming the URL; the batch goes on", arguments: [" ", "\t"])
    func urlWithMoreWords(separator: String) throws {
        let input = "app://Echo/echo?a=1\(separator)extra words\nEcho echo ok=1\n"
        let run = try Mediate.run(["--in-memory", "batch"], input: input)
        #expect(run.status == 1)
        #expect(run.lines == [#"{"ok":"1"}"#])
        #expect(
            run.errorLines == [
                #"mediate: error: line 1: the URL "app://Echo/echo?a=1" is followed by "extra words"; a URL line holds the URL alone (write a space in it as %20)"#
            ])
        let json = try Mediate.run(["--in-memory", "batch", "--json"], input: input)
        #expect(json.lines.first?.contains(#""code":"usage""#) == true, "\(json)")
    }
}
