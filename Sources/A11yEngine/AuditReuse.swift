/// What the daemon's next audit takes unchanged from the last one. Components, surfaces and pairings read token values
/// only through a few facts: which tokens are colors, which colors are fully clear, fonts and numbers, which tokens
/// alias which, the colors view code draws, and the colors that background functions return. When an edit changed
/// colors and none of those facts, the last audit's pairing is this audit's too; everything downstream (measurements,
/// findings) is computed again.
enum AuditReuse {
    /// The previous context's components and pairing, or nil when this audit must pair again.
    static func pairing(from previous: AuditContext, graph: TokenGraph, configuration: ProjectConfiguration,
                        viewCode: ViewCodeFacts, themes: [Theme]) -> AuditContext? {
        let before = previous.graph
        // Themes, view code and configuration each feed pairing in ways this check does not follow.
        guard themes.isEmpty, previous.themes.isEmpty, viewCode.isEmpty, previous.viewCode.isEmpty,
              configuration == previous.configuration, graph.sameKeysAsPrevious || graph.sortedKeys == before.sortedKeys,
              graph.structInstances == before.structInstances, graph.palettes.isEmpty, before.palettes.isEmpty,
              graph.program.sources.map(\.components) == before.program.sources.map(\.components) else { return nil }
        // Declarations that changed are static members (anything else starts the program afresh); the tokens they
        // define (and the fields of a struct they hold) keep their name, place and kind, and alias the same token.
        guard let changedDeclarations = graph.program.changedSincePrevious else { return nil }
        // An updated graph says which tokens it read again; otherwise they are found by name.
        let reread = graph.updatedKeys.map { Array($0) }
            ?? graph.sortedKeys.filter { key in changedDeclarations.contains(where: { key == $0 || key.hasPrefix($0 + ".") }) }
        for key in reread {
            guard let token = graph.tokens[key], let earlier = before.tokens[key],
                  token.declaredKind == earlier.declaredKind, token.location == earlier.location, token.scope == earlier.scope,
                  token.alias?.path == earlier.alias?.path, (token.expression == nil) == (earlier.expression == nil) else { return nil }
        }
        // Tokens whose values changed (those declarations and whatever reads them): colors before and after, clear in
        // both or in neither.
        for key in graph.updatedKeys.map({ $0.filter { graph.values(differ: before, at: $0) } }) ?? graph.keysWithChangedValues(since: before) {
            guard case .success(.color(let color)) = graph.value(of: key), case .success(.color(let earlierColor)) = before.value(of: key),
                  isClear(color) == isClear(earlierColor) else { return nil }
        }
        // Backgrounds returned by functions carry their colors in the pairing itself.
        for component in previous.components {
            let functions = graph.interpreter.memberDeclarations(of: component.name + "." + Component.Group.colors.rawValue)
            if functions.contains(where: { if case .function = $0.kind { return true } else { return false } }) { return nil }
        }
        return previous
    }

    private static func isClear(_ color: AppearanceColor) -> Bool { Appearance.allCases.allSatisfy { color[$0].alpha == 0 } }
}
