// Calls to the wrappers generated for the specimen targets (GeneratedWrappersFixture.swift),
// written by hand as a user would write them: they pin the generated names, labels and types
// (a different name or type does not compile) and compare each call with the call by name.
// Compiled only into the generated-wrappers program (`GENERATED_WRAPPERS`), which imports the
// generated module; here the file is empty.
#if GENERATED_WRAPPERS
import Generated
import Mediator

extension WrapperVerdict {
    mutating func checkSpecimens() async {
        await checkEverything()
        await checkKeywords()
        await checkResultShapes()
        await checkOtherForms()
    }

    private mutating func checkEverything() async {
        // Typed constants, not literals: a wrapper whose parameter has another type does not compile.
        let text: String = "a"
        let count: Int = 3
        let ratio: Double = 0.5
        let flag: Bool = true
        let names: [String] = ["x", "y"]
        let scores: [Int] = [1, 2]
        let weights: [Double] = [0.25, 1.0]
        let switches: [Bool] = [true, false]
        let grid: [[Int]] = [[1, 2], [3]]
        let options: [String: any Sendable] = ["b": 2, "a": "one"]
        let point: [String: any Sendable] = ["x": 1.5, "y": -2.0, "label": "p"]
        let handle: any Sendable = SpecimenHandle(name: "h")
        let limit: Int = 5
        let all: Params = [
            "text": text, "count": count, "ratio": ratio, "flag": flag, "names": names, "scores": scores, "weights": weights,
            "switches": switches, "grid": grid, "options": options, "point": point, "handle": handle, "limit": limit,
        ]
        agree("Specimen/everything, every parameter", target: "Specimen", action: "everything", params: all) {
            try $0.specimenEverything(
                text: text, count: count, ratio: ratio, flag: flag, names: names, scores: scores, weights: weights, switches: switches,
                grid: grid, options: options, point: point, handle: handle, limit: limit)
        }
        await agreeAsync("Specimen/everything, every parameter, async", target: "Specimen", action: "everything", params: all) {
            try await $0.specimenEverything(
                text: text, count: count, ratio: ratio, flag: flag, names: names, scores: scores, weights: weights, switches: switches,
                grid: grid, options: options, point: point, handle: handle, limit: limit)
        }
        let required: Params = ["text": text, "count": count, "ratio": ratio, "flag": flag, "names": names]
        agree("Specimen/everything, required parameters", target: "Specimen", action: "everything", params: required) {
            try $0.specimenEverything(text: text, count: count, ratio: ratio, flag: flag, names: names)
        }
        await agreeAsync("Specimen/everything, required parameters, async", target: "Specimen", action: "everything", params: required) {
            try await $0.specimenEverything(text: text, count: count, ratio: ratio, flag: flag, names: names)
        }
        // Beyond agreeing: the values arrive with their types, and an optional left out is not sent
        // (so the declared default applies).
        let full: SpecimenEverythingResult? = try? await makeMediator().specimenEverything(
            text: text, count: count, ratio: ratio, flag: flag, names: names, options: options, point: point, handle: handle)
        expect("Specimen/everything decodes nested objects and reads the handle", full?.point?.label == "p" && full?.handleName == "h")
        expect("Specimen/everything sends the object", full?.optionKeys == ["a", "b"])
        expect("Specimen/everything's struct keeps arrays of objects", full?.received.first?.key == "count")
        let defaults = try? await makeMediator().specimenEverything(text: text, count: count, ratio: ratio, flag: flag, names: names)
        expect("Specimen/everything gets the default of an optional left out", defaults?.limit == 20)
        expect("Specimen/everything receives only what was given", defaults?.received.map(\.key) == ["count", "flag", "limit", "names", "ratio", "text"])
    }

    private mutating func checkKeywords() async {
        let all: Params = ["default": 1, "in": "x", "self": true, "first-name": "Ada", "firstName": "Lovelace", "2fa": "123", "params": "p", "class": "c"]
        agree("Specimen/keywords, every parameter", target: "Specimen", action: "keywords", params: all) {
            try $0.specimenKeywords(default: 1, in: "x", self: true, firstName: "Ada", firstName2: "Lovelace", _2fa: "123", params: "p", class: "c")
        }
        agree("Specimen/keywords, required parameters", target: "Specimen", action: "keywords", params: ["default": 1, "in": "x"]) {
            try $0.specimenKeywords(default: 1, in: "x")
        }
        let result = try? await makeMediator().specimenKeywords(
            default: 1, in: "x", self: false, firstName: "Ada", firstName2: "L", _2fa: "2", params: "p", class: "c")
        let expected =
            result?.default == 1 && result?.in == "x" && result?.`self` == false && result?.firstName == "Ada" && result?.firstName2 == "L"
            && result?._2fa == "2" && result?.`Type` == "c" && result?.string?.value == "p"
        expect("Specimen/keywords decodes renamed fields", expected)
        let odd: Params = ["naïve \"quoted\"\\\n": "n", "--": 2, "_": true]
        agree("Specimen/oddities", target: "Specimen", action: "oddities", params: odd) { try $0.specimenOddities(naVeQuoted: "n", value: 2, value2: true) }
        let oddities = try? await makeMediator().specimenOddities(naVeQuoted: "n", value: 2, value2: true)
        expect("Specimen/oddities decodes renamed fields", oddities?.naVe == "n" && oddities?.value == 2 && oddities?.value2 == true)
    }

    private mutating func checkResultShapes() async {
        await agreeAsync("Specimen/sum, async", target: "Specimen", action: "sum", params: ["numbers": [1, 2, 3]]) {
            try await $0.specimenSum(numbers: [1, 2, 3])
        }
        await agreeAsync("Specimen/stats, async", target: "Specimen", action: "stats", params: ["values": [1.0, 2.0]]) {
            try await $0.specimenStats(values: [1.0, 2.0])
        }
        await agreeAsync("Specimen/stats, async, optional field", target: "Specimen", action: "stats", params: ["values": [Double]()]) {
            try await $0.specimenStats(values: [])
        }
        agree("Specimen/shout", target: "Specimen", action: "shout", params: ["text": "hi"]) { try $0.specimenShout(text: "hi") }
        agree("Specimen/half", target: "Specimen", action: "half", params: ["value": 3.0]) { try $0.specimenHalf(value: 3.0) }
        agree("Specimen/isEven", target: "Specimen", action: "isEven", params: ["value": 4]) { try $0.specimenIsEven(value: 4) }
        agree("Specimen/words", target: "Specimen", action: "words", params: ["text": "a b"]) { try $0.specimenWords(text: "a b") }
        agree("Specimen/matrix", target: "Specimen", action: "matrix", params: ["size": 2]) { try $0.specimenMatrix(size: 2) }
        agree("Specimen/points", target: "Specimen", action: "points", params: ["count": 2]) { try $0.specimenPoints(count: 2) }
        agreeCast("Specimen/anything", target: "Specimen", action: "anything", params: ["key": "k"]) { try $0.specimenAnything(key: "k") }
        agreeCast("Specimen/handle", target: "Specimen", action: "handle", params: ["name": "h"]) { try $0.specimenHandle(name: "h") }
        agreeUntyped("Specimen/untyped", target: "Specimen", action: "untyped", params: ["value": "v"]) { try $0.specimenUntyped(value: "v") }
        let points: [SpecimenPointsResultItem]? = try? await makeMediator().specimenPoints(count: 2)
        expect("Specimen/points decodes an array of structs", points?.map(\.y) == [0, 1])
        let matrix: [[Double]]? = try? await makeMediator().specimenMatrix(size: 2)
        expect("Specimen/matrix decodes nested arrays", matrix == [[1, 0], [0, 1]])
        let handle = try? await makeMediator().specimenHandle(name: "h") as? SpecimenHandle
        expect("Specimen/handle returns the Swift value", handle == SpecimenHandle(name: "h"))
    }

    private mutating func checkOtherForms() async {
        agreeUntyped("Specimen/legacy", target: "Specimen", action: "legacy", params: ["b": 1, "a": "two"]) {
            try $0.specimenLegacy(params: ["b": 1, "a": "two"])
        }
        agreeUntyped("Specimen/legacy, no params", target: "Specimen", action: "legacy", params: [:]) { try $0.specimenLegacy() }
        await agreeUntypedAsync("Specimen/legacy, async", target: "Specimen", action: "legacy", params: ["a": 1]) {
            try await $0.specimenLegacy(params: ["a": 1])
        }
        agree("Specimen/nothing", target: "Specimen", action: "nothing", params: [:]) { try $0.specimenNothing() }
        agree("Specimen/get-by.id", target: "Specimen", action: "get-by.id", params: ["id": 4]) { try $0.specimenGetById(id: 4) }
        agree("Specimen/getById", target: "Specimen", action: "getById", params: ["id": 4]) { try $0.specimenGetById2(id: 4) }
        agree("Registry/description", target: "Registry", action: "description", params: [:]) { try $0.registryDescriptionAction() }
        // A refused value fails the same way through the wrapper and by name.
        agree("Specimen/matrix, out of range", target: "Specimen", action: "matrix", params: ["size": 9]) { try $0.specimenMatrix(size: 9) }
    }
}
#endif
