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

    /// A closure's application looks its captures up under its own bindings, without copying them: a parameter shadows
    /// a capture of its name, setting a captured name binds it anew, and unbinding it does not uncover the capture.
    @Test func anApplicationsBindingsShadowTheCapturesTheyLeaveUnchanged() {
        var captures = Locals()
        captures["light"] = .string("#FFFFFF")
        captures["dark"] = .string("#000000")
        var application = Locals(capturing: captures)
        #expect(application["light"] == .string("#FFFFFF") && application["traits"] == nil)
        application["traits"] = .number(1)
        application["dark"] = .string("#111111")
        #expect(application["dark"] == .string("#111111") && captures["dark"] == .string("#000000"))
        // Seen whole, as one list made by copying the captures and then binding would be.
        #expect(application.count == 3 && application.keys == ["light", "dark", "traits"])
        var copied = Locals()
        copied["traits"] = .number(1); copied["light"] = .string("#FFFFFF"); copied["dark"] = .string("#111111")
        #expect(application == copied && application.hashValue == copied.hashValue)
        application["light"] = nil
        #expect(application["light"] == nil && application.count == 2 && captures["light"] == .string("#FFFFFF"))

        // A closure made inside an application captures both levels; applying it sees them as one.
        var inner = Locals(capturing: Locals(capturing: captures).with("dark", .string("#222222")))
        #expect(inner["dark"] == .string("#222222") && inner["light"] == .string("#FFFFFF") && inner.count == 2)
        inner["x"] = .bool(true)
        #expect(inner.keys == ["light", "dark", "x"])
    }
}

private extension Locals {
    func with(_ name: String, _ value: Value) -> Locals {
        var copy = self
        copy[name] = value
        return copy
    }
}
