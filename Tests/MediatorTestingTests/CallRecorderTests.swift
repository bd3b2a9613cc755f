import Mediator
import MediatorTesting
import TestSupport
import Testing

@Suite("CallRecorder")
struct CallRecorderTests {
    @Test("A call is recorded with its target, action, params, outcome, origin and depth")
    func recordsOneCall() throws {
        let mediator = Mediator()
        try registerEchoAndOuter(in: mediator)
        let recorder = CallRecorder()
        mediator.addObserver(recorder)

        _ = try mediator.callNow(target: "Target_Echo", action: "Action_echo", params: ["word": "hi"])

        let record = try #require(recorder.records.first)
        #expect(recorder.records.count == 1)
        #expect(record.request.askedTarget == "Target_Echo")
        #expect(record.target == "Echo")
        #expect(record.action == "echo")
        #expect(record.request.params["word"] as? String == "hi")
        #expect(record.succeeded)
        #expect((try record.result.get() as? [String: any Sendable])?["word"] as? String == "hi")
        #expect(record.request.origin == .inProcess)
        #expect(record.request.depth == 1)
        #expect(record.redirectedFrom.isEmpty)
    }

    @Test("A nested call is recorded before the call that made it, one level deeper")
    func nestedCallsInTheOrderTheyFinished() throws {
        let mediator = Mediator()
        try registerEchoAndOuter(in: mediator)
        let recorder = CallRecorder()
        mediator.addObserver(recorder)

        _ = try mediator.callNow(target: "Outer", action: "run", params: ["word": "hi"])

        #expect(recorder.names == ["Echo/echo", "Outer/run"])
        #expect(recorder.records.map(\.request.depth) == [2, 1])
    }

    @Test("A failed call is recorded with its error")
    func recordsFailures() throws {
        let mediator = Mediator()
        let recorder = CallRecorder()
        mediator.addObserver(recorder)

        #expect(throws: MediatorError.self) { try mediator.callNow(target: "Missing", action: "go") }

        let record = try #require(recorder.records.first)
        #expect(!record.succeeded)
        #expect(record.error?.code == .targetNotFound)
        #expect(record.name == "Missing/go")
    }

    @Test("A redirected call is recorded where it ended, with the pairs it passed through")
    func recordsRedirects() throws {
        let mediator = Mediator()
        try registerEchoAndOuter(in: mediator)
        var table = RedirectTable()
        try table.redirect("Old/echo", to: "Echo/echo")
        mediator.setRedirects(table)
        let recorder = CallRecorder()
        mediator.addObserver(recorder)

        _ = try mediator.callNow(target: "Old", action: "echo")

        let record = try #require(recorder.records.first)
        #expect(record.request.askedTarget == "Old")
        #expect(record.name == "Echo/echo")
        #expect(record.redirectedFrom == ["Old/echo"])
    }

    @Test("A URL call is recorded with its origin, the URL as given")
    func recordsTheOrigin() throws {
        let mediator = Mediator()
        try registerEchoAndOuter(in: mediator)
        let recorder = CallRecorder()
        mediator.addObserver(recorder)

        _ = try mediator.callNow(url: "app://Echo/echo?word=hi")

        #expect(recorder.records.first?.request.origin == .url("app://Echo/echo?word=hi"))
    }

    @Test("records(target:action:) filters by where calls ended, short or full names")
    func filters() throws {
        let mediator = Mediator()
        try registerEchoAndOuter(in: mediator)
        let recorder = CallRecorder()
        mediator.addObserver(recorder)

        _ = try mediator.callNow(target: "Outer", action: "run", params: ["word": "a"])
        _ = try mediator.callNow(target: "Echo", action: "echo")

        #expect(recorder.records(target: "Echo").count == 2)
        #expect(recorder.records(target: "Target_Echo", action: "Action_echo:").count == 2)
        #expect(recorder.records(target: "Outer", action: "run").count == 1)
        #expect(recorder.records(target: "Outer", action: "other").isEmpty)
        #expect(recorder.records(target: "Nobody").isEmpty)
    }

    @Test("removeAll forgets what was recorded; later calls are recorded again")
    func removeAll() throws {
        let mediator = Mediator()
        try registerEchoAndOuter(in: mediator)
        let recorder = CallRecorder()
        mediator.addObserver(recorder)
        _ = try mediator.callNow(target: "Echo", action: "echo")

        recorder.removeAll()
        #expect(recorder.records.isEmpty)
        _ = try mediator.callNow(target: "Outer", action: "run", params: ["word": "a"])
        #expect(recorder.names == ["Echo/echo", "Outer/run"])
    }

    @Test("A snapshot does not change when later calls are recorded")
    func snapshotsAreValues() throws {
        let mediator = Mediator()
        try registerEchoAndOuter(in: mediator)
        let recorder = CallRecorder()
        mediator.addObserver(recorder)
        _ = try mediator.callNow(target: "Echo", action: "echo")

        let snapshot = recorder.records
        _ = try mediator.callNow(target: "Echo", action: "echo")
        #expect(snapshot.count == 1)
        #expect(recorder.records.count == 2)
    }

    @Test("Calls on many threads are all recorded, while others read and clear the records")
    func concurrentCalls() throws {
        let mediator = Mediator()
        try registerEchoAndOuter(in: mediator)
        let recorder = CallRecorder()
        let reader = CallRecorder()
        mediator.addObserver(recorder)
        mediator.addObserver(reader)
        onThreads(8) { index in
            for call in 0..<200 {
                _ = mediator.perform(target: "Echo", action: "echo", params: ["thread": index, "call": call])
                // Readers and a clearer on the same recorder as the calls: no crash, no lost record.
                if index == 0 { _ = reader.records(target: "Echo") }
                if index == 1, call % 50 == 0 { reader.removeAll() }
            }
        }
        #expect(recorder.records.count == 8 * 200)
        let seen = Set(
            recorder.records.compactMap { record in
                (record.request.params["thread"] as? Int).flatMap { thread in (record.request.params["call"] as? Int).map { thread * 1_000 + $0 } }
            })
        #expect(seen.count == 8 * 200)
    }
}
