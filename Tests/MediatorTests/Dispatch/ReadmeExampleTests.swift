import Mediator
import Testing

// The README's usage example, kept compiling and true.

final class Target_Greeter: MediatorTarget {
    static let actions: [Action<Target_Greeter>] = [
        Action("hello") { greeter, params in
            "\(greeter.greeting), \(try params.value("name", as: String.self))!"
        }
    ]
    let greeting = "Hello"
}

extension Mediator {
    func greet(_ name: String) throws(MediatorError) -> String {
        try callNow(target: "Greeter", action: "hello", params: ["name": name], as: String.self)
    }
}

@Suite("README example")
struct ReadmeExampleTests {
    @Test("The usage example gives the results the README shows")
    func usage() throws {
        let mediator = Mediator()
        try mediator.register(Target_Greeter.self) { _ in Target_Greeter() }
        #expect(mediator.perform(target: "Greeter", action: "hello", params: ["name": "Ada"]) as? String == "Hello, Ada!")
        let error = #expect(throws: MediatorError.self) {
            try mediator.callNow(target: "Greeter", action: "helo", params: ["name": "Ada"])
        }
        #expect(error?.description == "Greeter/helo: target \"Greeter\" has no action \"helo\"; did you mean \"hello\"? (available actions: hello)")
        #expect(try mediator.greet("Grace") == "Hello, Grace!")
    }
}
