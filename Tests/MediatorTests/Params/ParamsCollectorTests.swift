import TestSupport
import Testing

@testable import Mediator

@Suite("Params collected from outside")
struct ParamsCollectorTests {
    @Test("Room reserved for many items is not kept by params holding a few (a query of empty items)")
    func reservedRoomNotKept() throws {
        var collector = ParamsCollector()
        collector.reserveCapacity(1_024)
        collector.add(key: "x", value: "1")
        guard case .pairs(let pairs) = collector.params.storage else {
            Issue.record("one value is not stored as pairs")
            return
        }
        #expect(pairs.count == 1)
        #expect(pairs.capacity <= Params.pairLimit)
    }

    @Test("A repeated key collects its values in order, before and after the position table, and a URL query does the same")
    func repeatedKeys() throws {
        var collector = ParamsCollector()
        for index in 0..<12 { collector.add(key: "k\(index % 10)", value: "v\(index)") }
        let params = collector.params
        #expect(params.count == 10)
        #expect(params["k0"] as? [String] == ["v0", "v10"])
        #expect(params["k1"] as? [String] == ["v1", "v11"])
        #expect(params["k9"] as? String == "v9")

        let mediator = Mediator()
        try mediator.registerEcho()
        let query = (0..<12).map { "k\($0 % 10)=v\($0)" }.joined(separator: "&")
        let echoed = try #require(try mediator.callNow(url: "app://Echo/echo?" + query) as? Params)
        #expect(echoed["k0"] as? [String] == ["v0", "v10"])
        #expect(echoed["k1"] as? [String] == ["v1", "v11"])
        #expect(echoed["k9"] as? String == "v9")
    }
}
