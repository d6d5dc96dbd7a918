/// Pairs listed under `pairs:` in the project configuration: the designer's word, so they settle their foregrounds.
public struct DeclaredPairs: PairingSource {
    public init() {}

    public func propose(_ input: PairingInference, surfaces: Surfaces) -> PairingProposal {
        let (pairs, findings) = declaredPairings(input)
        return PairingProposal(pairings: pairs, findings: findings, authoritative: true)
    }

    func declaredPairings(_ input: PairingInference) -> ([Pairing], [Finding]) {
        var pairs: [Pairing] = []
        var findings: [Finding] = []
        for declared in input.configuration.pairs {
            guard let fgKey = input.resolveName(declared.foreground), let bgKey = input.resolveName(declared.background),
                  let fg = input.endpoint(for: fgKey), let bg = input.endpoint(for: bgKey) else {
                let missing = input.resolveName(declared.foreground) == nil ? declared.foreground : declared.background
                findings.append(Finding(
                    rule: "reference", severity: .error, subject: "\(declared.foreground) on \(declared.background)",
                    message: "declared pair names \(missing), which is not a token or component property",
                    location: declared.location))
                continue
            }
            let component = declared.component ?? input.componentOwning(fgKey)
            var pair = Pairing(component: component, foreground: fg, background: bg, role: declared.role, reason: .declared,
                               explanation: "declared in \(declared.location?.description ?? ".a11yd.yml")", typography: nil)
            if declared.role == .text, let c = input.components.first(where: { $0.name == component }) {
                pair.typography = input.typography(for: fg.property ?? fg.name, in: c)
            }
            pairs.append(pair)
        }
        return (pairs, findings)
    }
}
