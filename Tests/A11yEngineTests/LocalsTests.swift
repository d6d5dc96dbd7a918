import Testing
@testable import A11yEngine

struct LocalsTests {
    @Test func bindingRebindingAndUnbindingWorkAsADictionaryDoes() {
        var locals = Locals()
        locals["light"] = .string("#FFFFFF")
        locals["dark"] = .string("#000000")
        locals["light"] = .number(1)
        #expect(locals["light"] == .number(1) && locals["dark"] == .string("#000000") && locals["traits"] == nil)
        #expect(locals.count == 2 && locals.keys == ["light", "dark"])
        locals["light"] = nil
        locals["missing"] = nil
        #expect(locals.count == 1 && locals["light"] == nil)
        #expect(Locals(["a": .bool(true)])["a"] == .bool(true))
    }

    /// Closures capture locals and are compared as values: the order bindings were made in does not matter.
    @Test func equalityAndHashIgnoreOrder() {
        var first = Locals(), second = Locals()
        first["a"] = .number(1); first["b"] = .number(2)
        second["b"] = .number(2); second["a"] = .number(1)
        #expect(first == second && first.hashValue == second.hashValue)
        second["b"] = .number(3)
        #expect(first != second)
        var third = first
        third["c"] = .number(0)
        #expect(first != third)
    }
}
