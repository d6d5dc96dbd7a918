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
        // Only a graph updated from the last one (static members changed in place, no themes) says which tokens an
        // edit reached. Themes, view code and configuration each feed pairing in ways this check does not follow.
        guard let reread = graph.updatedKeys, graph.sameKeysAsPrevious, themes.isEmpty, viewCode.isEmpty, previous.viewCode.isEmpty,
              configuration == previous.configuration, graph.structInstances == before.structInstances,
              graph.program.sources.map(\.components) == before.program.sources.map(\.components) else { return nil }
        for key in reread {
            // The token keeps its name, place and kind, and aliases the same token...
            guard let token = graph.tokens[key], let earlier = before.tokens[key],
                  token.declaredKind == earlier.declaredKind, token.location == earlier.location, token.scope == earlier.scope,
                  token.alias?.path == earlier.alias?.path, (token.expression == nil) == (earlier.expression == nil) else { return nil }
            // ...and a changed value is a color before and after, clear in both or in neither.
            if graph.values(differ: before, at: key) {
                guard let color = graph.color(of: key), let earlierColor = before.color(of: key),
                      color.isClear == earlierColor.isClear else { return nil }
            }
        }
        // Backgrounds returned by functions carry their colors in the pairing itself.
        for component in previous.components {
            let functions = graph.interpreter.memberDeclarations(of: component.name + "." + Component.Group.colors.rawValue)
            if functions.contains(where: { if case .function = $0.kind { return true } else { return false } }) { return nil }
        }
        return previous
    }
}
