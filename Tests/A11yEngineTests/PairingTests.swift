import Testing
@testable import A11yEngine

struct PairingTests {
    @Test(arguments: [
        ("label", Role.text), ("selectedDayText", .text), ("weekdayHeader", .text), ("largeTitle", .text),
        ("errorBorder", .graphic), ("dragIndicator", .graphic), ("thumb", .graphic), ("trackActive", .graphic),
        ("tint", .graphic), ("badge", .graphic), ("selected", .graphic),
        ("menuBackground", .background), ("trackBackground", .graphic), ("dotRowBackground", .background),
        ("sheetBackground", .background),
        ("disabledDayText", .disabled), ("disabled", .disabled), ("thumbShadow", .decorative),
        // Disabled and decorative words decide wherever they stand; else the last role word does.
        ("textDisabled", .disabled), ("shadowText", .decorative), ("iconLabel", .text), ("labelIcons", .graphic),
        // Numbered role words (a scale step): Pocket-Casts-style `primaryText01`, `primaryIcon02`.
        ("primaryText01", .text), ("primaryIcon02", .graphic), ("surface2", .background),
    ])
    func roleComesFromNameWords(_ name: String, _ expected: Role) {
        #expect(Role.inferred(fromName: name).role == expected)
    }

    /// The role word is given singular and without its number: the word a pairing's explanation quotes.
    @Test(arguments: [
        ("cardSurfaces", Role.background, "surface" as String?), ("primaryIcons02", .graphic, "icon"), ("trackBackground", .graphic, "track"),
        ("progress", .graphic, "progress"), ("canvas", .background, "canvas"), ("bgs", .graphic, nil), ("fills2", .background, "fill"),
        ("disabledLabels", .disabled, "disabled"), ("rowShadows", .decorative, "shadow"), ("plain", .graphic, nil),
    ])
    func theRoleWordIsSingularAndUnnumbered(_ name: String, _ role: Role, _ word: String?) {
        #expect(Role.inferred(fromName: name) == (role, word))
    }

    @Test func aNumberedWordsStemIsWhatComesBeforeItsFirstDigit() {
        for (word, stem) in [("text01", "text"), ("icon2", "icon"), ("h2o", "h"), ("plain", "plain"), ("2x", "2x"), ("", ""),
                             ("grün3", "grün"), ("٣x", "٣x"), ("ab٣", "ab")] {
            #expect(Role.numberedStem(word) == stem, "\(word)")
        }
    }

    /// A word's role entry found on its bytes (an ASCII stem of up to 16 bytes) is the one `roleIndex` gives its numbered
    /// stem; other words (non-ASCII, longer stems) take that path.
    @Test func aWordsRoleEntryOnItsBytesIsTheIndexs() {
        for word in ["text", "text01", "icons", "icons3", "background", "backgrounds", "placeholders", "2x", "", "h2o", "plain",
                     "Text", "grün", "tëxt", "surface٣", "backgroundbackground", "backgroundbackground1", "a.b"] {
            #expect(Role.roleEntry(of: word) == (Role.roleIndex[Role.numberedStem(word)] ?? -1), "\(word)")
        }
    }

    /// A name's words and role found in one pass over its bytes are `nameWords` and `Role.inferred(fromWords:)` of them
    /// (names that are not ASCII, and words whose stems are over 16 bytes, take the general paths).
    @Test func aNamesWordsAndRoleInOnePassAreItsWordsAndTheirRole() {
        for name in ["appTextOnBrandPrimary", "primaryIcons02", "trackBackground", "disabledLabels", "", "_-./ ", "URLBar",
                     "backgroundbackgroundText1", "textBackgroundbackground1", "contrastRoséDark", "tëxtLabel", "surface٣", "bgs"] {
            let (words, role, word) = wordsAndRole(of: name)
            let inferred = Role.inferred(fromWords: nameWords(name))
            #expect(words == nameWords(name) && role == inferred.role && word == inferred.word, "\(name)")
        }
    }

    /// A name passed over as no height (`DynamicTypeRule.mayEndInHeight`) is one whose last word is not `height`
    /// (names that are not ASCII are always split).
    @Test func aNamePassedOverAsNoHeightHasAnotherLastWord() {
        for name in ["height", "rowHeight", "row_height_", "ROWHEIGHT", "minHeight/", "heights", "heightMin", "weight", "eight",
                     "", "_", "rowheight", "row2Height", "hëight", "rowHéight", "Height.", "thumbSize"] {
            if !DynamicTypeRule.mayEndInHeight(name) { #expect(nameWords(name).last != "height", "\(name)") }
        }
        #expect(!DynamicTypeRule.mayEndInHeight("thumbSize") && DynamicTypeRule.mayEndInHeight("row_height_"))
    }

    /// Whether a name has a word of a set, found on its bytes, is what its words say (a word over 16 bytes, and names that
    /// are not ASCII, take the general paths).
    @Test func aNameHasAWordOfASetAsItsWordsSay() {
        let words: Set<String> = ["dark", "rosé", "experimental", "verylongthemewordindeed"]
        let set = NameWordSet(words)
        for name in ["darkPalette", "DARK", "darker", "roséTheme", "rose", "experimentalTheme", "themeVerylongthemewordindeed",
                     "themeVerylongthemewordindeedToo", "", "x_dark", "night"] {
            #expect(set.isAmongWords(of: name) == nameWords(name).contains(where: words.contains), "\(name)")
        }
    }

    /// Whether a key's first name is a namespace, found on its bytes, is what its first dot character gives (a dot beside
    /// a non-ASCII byte takes the general path).
    @Test func aKeysNamespaceOnItsBytesIsTheOneItsCharactersGive() {
        for key in ["Color.brand", "Colors.brand", "Color", "", ".x", "Color.", "Cöler.x", "Color.\u{308}x", "UIColor.a.b", "Asset.ink",
                    "Color\u{301}.x", "BenchComponent0Styling.Colors.label"] {
            #expect(PairingInference.isNamespace(key) == TokenGraph.isDisplayPrefix(key[..<(key.firstDotIndex ?? key.endIndex)]), "\(key)")
        }
    }

    /// A pairing keeps its fields behind one shared reference: a copy that is changed must not change the original.
    @Test func aChangedCopyOfAPairingLeavesTheOriginalAsItWas() {
        let ink = PairingEndpoint(qualifiedName: "Color.ink", token: "ink", property: nil, location: Self.at(2))
        let paper = PairingEndpoint(qualifiedName: "Color.paper", token: "paper", property: nil, location: Self.at(3))
        let original = Pairing(foreground: ink, background: paper, role: .text, reason: .namingConvention, explanation: "ink on paper")
        var copy = original
        #expect(copy == original && copy.hashValue == original.hashValue)
        copy.foreground.color = AppearanceColor(constant: ColorValue(hex: "#777777")!)
        copy.role = .graphic
        #expect(original.foreground.color == nil && original.role == .text)
        #expect(copy.foreground.color?[.dark] == ColorValue(hex: "#777777") && copy.role == .graphic)
        #expect(copy != original)
        // Equal fields in two separate pairings are equal pairings, with equal hashes.
        let again = Pairing(foreground: ink, background: paper, role: .text, reason: .namingConvention, explanation: "ink on paper")
        #expect(again == original && Set([again, original]).count == 1)
    }

    @Test func nameWordsSplitCamelSnakeAndKebabCase() {
        #expect(nameWords("appTextOnBrandPrimary") == ["app", "text", "on", "brand", "primary"])
        #expect(nameWords("fill_default") == ["fill", "default"])
        // ASCII names take a byte path; others (a theme named rosé) the Character path, with the same rules.
        #expect(nameWords("item12Text-on/BG.x") == ["item12", "text", "on", "bg", "x"])
        #expect(nameWords("contrastRoséDark") == ["contrast", "rosé", "dark"])
        #expect(nameWords("URLBar") == ["urlbar"])
        #expect(nameWords("text-on-brand") == ["text", "on", "brand"])
        #expect(nameWords("space4XL") == ["space4", "xl"])
        // Nothing but separators, and names of one letter: the word bounds are found before the words are made.
        #expect(nameWords("").isEmpty && nameWords("_-./ ").isEmpty)
        #expect(nameWords("A") == ["a"] && nameWords("__aB__") == ["a", "b"])
    }

    static let file = "Styling.swift"
    static func at(_ line: Int) -> A11yEngine.SourceLocation { A11yEngine.SourceLocation(file: file, line: line, column: 9) }
    static func color(_ name: String, _ hex: String, line: Int) -> TokenDefinition {
        TokenDefinition(qualifiedName: name.split(separator: ".").map(String.init), declaredKind: .color,
                        expression: .color(ColorValue(hex: hex)!), location: at(line))
    }

    func context(_ tokens: [TokenDefinition], components: [String], configuration: ProjectConfiguration = ProjectConfiguration()) -> (PairingInference, Surfaces) {
        let source = ParsedSource(file: Self.file, tokens: tokens,
                                  components: components.map { ComponentDeclaration(qualifiedName: [$0], location: Self.at(1)) })
        let graph = TokenGraph(sources: [source])
        let inference = PairingInference(graph: graph, components: Component.all(declarations: source.components, graph: graph),
                                         configuration: configuration)
        return (inference, inference.surfaces().0)
    }

    @Test func textPairsWithTheComponentBackgroundAndBadgeTextWithBadge() {
        let (inference, surfaces) = context([
            Self.color("Color.appSurfaceBasePrimary", "#FFFFFF", line: 1),
            Self.color("Nav.Colors.background", "#F8FAFC", line: 2),
            Self.color("Nav.Colors.activeLabel", "#4F46E5", line: 3),
            Self.color("Nav.Colors.badge", "#DC2626", line: 4),
            Self.color("Nav.Colors.badgeText", "#FFFFFF", line: 5),
        ], components: ["Nav"])
        #expect(surfaces.endpoints.map(\.name) == ["appSurfaceBasePrimary"])
        #expect(surfaces.inferred)
        let pairs = inference.pairings(surfaces: surfaces).0.map { "\($0.foreground.name) on \($0.background.name) \($0.reason.rawValue)" }
        #expect(pairs.contains("activeLabel on background component"))
        #expect(pairs.contains("badge on background component"))
        #expect(pairs.contains("badgeText on badge naming-convention"))
        #expect(!pairs.contains("badgeText on background component"))
    }

    @Test func clearOrMissingBackgroundMeansTheDefaultSurface() {
        let (inference, surfaces) = context([
            Self.color("Color.appSurfaceBasePrimary", "#FFFFFF", line: 1),
            Self.color("Dots.Colors.dotActive", "#4F46E5", line: 2),
            TokenDefinition(qualifiedName: ["Dots", "Colors", "dotRowBackground"], declaredKind: .color,
                            expression: .color(.clear), location: Self.at(3)),
            Self.color("Loader.Colors.label", "#475569", line: 4),
        ], components: ["Dots", "Loader"])
        let pairs = inference.pairings(surfaces: surfaces).0
        let dot = pairs.filter { $0.foreground.name == "dotActive" }
        #expect(dot.map(\.background.name) == ["appSurfaceBasePrimary"])
        #expect(dot.first?.reason == .defaultSurface)
        #expect(pairs.first { $0.foreground.name == "label" }?.background.name == "appSurfaceBasePrimary")
    }

    @Test func onAndInverseTokensPairByNamingConvention() {
        let (inference, surfaces) = context([
            Self.color("Color.appSurfaceBasePrimary", "#FFFFFF", line: 1),
            Self.color("Color.appSurfaceBrand", "#4F46E5", line: 2),
            Self.color("Color.appTextOnBrandPrimary", "#FFFFFF", line: 3),
            Self.color("Color.appSurfaceInversePrimary", "#0F172A", line: 4),
            Self.color("Color.appTextInversePrimary", "#F8FAFC", line: 5),
        ], components: [])
        let pairs = inference.pairings(surfaces: surfaces).0.map { "\($0.foreground.name) on \($0.background.name)" }
        #expect(pairs.contains("appTextOnBrandPrimary on appSurfaceBrand"))
        #expect(pairs.contains("appTextInversePrimary on appSurfaceInversePrimary"))
        #expect(pairs.count == 2)
    }

    @Test func declaredPairsWinAndUnknownNamesAreFindings() {
        let configuration = ProjectConfiguration(pairs: [
            .init(foreground: "Date.Colors.selectedDayText", background: "Date.tint", role: .text,
                  location: A11yEngine.SourceLocation(file: ".a11yd.yml", line: 4, column: 5)),
            .init(foreground: "appTextNope", background: "appSurfaceBasePrimary", role: .text,
                  location: A11yEngine.SourceLocation(file: ".a11yd.yml", line: 7, column: 5)),
        ])
        let (inference, surfaces) = context([
            Self.color("Color.appSurfaceBasePrimary", "#FFFFFF", line: 1),
            Self.color("Date.Colors.tint", "#4F46E5", line: 2),
            Self.color("Date.Colors.selectedDayText", "#FFFFFF", line: 3),
            Self.color("Date.Colors.background", "#F2F2F7", line: 4),
        ], components: ["Date"], configuration: configuration)
        let (pairs, findings) = inference.pairings(surfaces: surfaces)
        // The declaration replaces the inferred selectedDayText-on-background pair.
        #expect(pairs.filter { $0.foreground.name == "selectedDayText" }.map { "\($0.background.name) \($0.reason.rawValue)" } == ["tint declared"])
        #expect(findings.count == 1)
        #expect(findings.first?.location?.line == 7)
        #expect(findings.first?.message.contains("appTextNope") == true)
    }

    @Test func largeTextFollowsThePolicyMapping() {
        let wcag = Policy(id: "w", name: "w", sources: [], largeText: .wcag, contrast: .init(text: 4.5, largeText: 3, graphic: 3),
                          highContrast: nil, severities: [:])
        var hig = wcag
        hig.largeText = .appleHIG
        func font(_ size: Double, _ weight: String?) -> FontValue {
            FontValue(size: size, weight: weight, face: nil, textStyle: nil, scales: true, location: nil)
        }
        #expect(wcag.isLargeText(font(18, nil)))
        #expect(!wcag.isLargeText(font(17, nil)))
        #expect(wcag.isLargeText(font(14, "bold")))
        #expect(!wcag.isLargeText(font(13, "bold")))
        #expect(!wcag.isLargeText(font(17, "semibold")))
        #expect(hig.isLargeText(font(13, "bold")))
        #expect(!hig.isLargeText(font(17, nil)))
        #expect(hig.isLargeText(font(18, nil)))
        #expect(!hig.isLargeText(FontValue(size: nil, weight: nil, face: nil, textStyle: nil, scales: false, location: nil)))
    }
}

struct HighContrastThresholdTests {
    @Test func highContrastAppearancesUseTheStricterThresholds() {
        let policy = Policy(id: "p", name: "p", sources: [], largeText: .wcag, contrast: .init(text: 4.5, largeText: 3, graphic: 3),
                            highContrast: .init(text: 7, largeText: 4.5, graphic: 4.5), severities: [:])
        #expect(policy.required(for: .text, in: .dark) == 4.5)
        #expect(policy.required(for: .text, in: .darkHighContrast) == 7)
        #expect(policy.required(for: .graphic, in: .lightHighContrast) == 4.5)
        #expect(policy.required(for: .disabled, in: .lightHighContrast) == nil)
    }

    @Test func increasedContrastIsAuditedOnlyWhenATokenDefinesIt() {
        let at = A11yEngine.SourceLocation(file: "T.swift", line: 1, column: 1)
        func graph(_ expression: TokenExpression) -> TokenGraph {
            TokenGraph(sources: [ParsedSource(file: "T.swift", tokens: [
                TokenDefinition(qualifiedName: ["Color", "ink"], declaredKind: .color, expression: expression, location: at),
                TokenDefinition(qualifiedName: ["Color", "clearish"], declaredKind: .color, expression: .color(.clear), location: at),
            ])])
        }
        #expect(Auditor.auditedAppearances(graph(.adaptive([.light: .color(.black), .dark: .color(.white)]))).appearances == [.light, .dark])
        #expect(Auditor.auditedAppearances(graph(.adaptive([.light: .color(.black), .lightHighContrast: .color(ColorValue(white: 0.1))]))).appearances
                == [.light, .dark, .lightHighContrast, .darkHighContrast])
    }
}

struct PaletteStepTests {
    @Test(arguments: [
        ("Color.blue50", true), ("baseColor.gray10", true), ("ElevatePrimitives.Blue._600", true), ("colorZinc50", true),
        ("Color.x2F2F2F", true), ("Color.appTextPrimary", false), ("Color.space4", false), ("designSystemColor.textLink", false),
        ("Color.xLarge", false),
    ])
    func paletteStepsAreRecognisedByTheirShape(_ name: String, _ expected: Bool) {
        #expect(TokenHygieneRule.isPaletteStep(name) == expected)
        #expect(TokenHygieneRule.isPaletteStepByCharacters(name) == expected)
    }

    /// The byte-wise reading of ASCII names agrees with the character-wise one on names built from the shapes that
    /// matter: hues in any case, digits, `_` and `-`, hex names, dots in every place.
    @Test func asciiNamesReadByBytesAsByCharacters() {
        let stems = ["", "blue", "Blue", "BLUE", "colorZinc", "zinc_", "gray-", "_", "greyish", "x", "X", "xLarge", "appText",
                     "navyBlue", "rose", "prose", "sky", "Sky_", "lime-"]
        let tails = ["", "0", "50", "600", "2F2F2F", "2f2f2g", "ABCDEF", "9"]
        let prefixes = ["", "Color.", "Blue.", "blue.", "Palette.Gray.", ".", "Color..", "ElevatePrimitives.Blue."]
        let suffixes = ["", ".", ".."]
        var checked = 0
        for prefix in prefixes {
            for stem in stems {
                for tail in tails {
                    for suffix in suffixes {
                        let name = prefix + stem + tail + suffix
                        var bytes = name
                        let byBytes = bytes.withUTF8(TokenHygieneRule.isASCIIPaletteStep)
                        #expect(byBytes == TokenHygieneRule.isPaletteStepByCharacters(name), "\(name)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == prefixes.count * stems.count * tails.count * suffixes.count)
    }
}

/// Name heuristics where no view code says where a color is drawn (issue 11, item 8).
extension PairingTests {
    @Test(arguments: [("surfacesBrandInteractive", Role.background), ("iconsWarning", .graphic), ("bordersStrong", .graphic),
                      ("typographyPrimary", .text), ("labels", .text)])
    func pluralRoleWordsAreTheirSingular(_ name: String, _ expected: Role) {
        #expect(Role.inferred(fromName: name).role == expected)
    }

    @Test func aStateForegroundPairsWithinItsStateOrOnTheTint() {
        let (inference, surfaces) = context([
            Self.color("Color.appSurfaceBasePrimary", "#FFFFFF", line: 1),
            Self.color("Picker.Colors.tint", "#4F46E5", line: 2),
            Self.color("Picker.Colors.background", "#F5F5F5", line: 3),
            Self.color("Picker.Colors.selectedDayText", "#FFFFFF", line: 4),
            Self.color("Picker.Colors.dayText", "#111111", line: 5),
            Self.color("Chip.Colors.background", "#FFFFFF", line: 6),
            Self.color("Chip.Colors.pressedBackground", "#E0E0E0", line: 7),
            Self.color("Chip.Colors.pressedText", "#222222", line: 8),
            Self.color("Row.Colors.background", "#FFFFFF", line: 9),
            Self.color("Row.Colors.backgroundHover", "#E8E8E8", line: 10),
            Self.color("Row.Colors.text", "#111111", line: 11),
            Self.color("Row.Colors.textHover", "#333333", line: 12),
            // `hovered` and `hover` name the same state.
            Self.color("Menu.Colors.background", "#FAFAFA", line: 13),
            Self.color("Menu.Colors.hoveredBackground", "#1F3FAA", line: 14),
            Self.color("Menu.Colors.hoverIcon", "#FFFFFF", line: 15),
        ], components: ["Picker", "Chip", "Row", "Menu"])
        let pairs = inference.pairings(surfaces: surfaces).0.map { "\($0.foreground.name) on \($0.background.name)" }
        #expect(pairs.contains("selectedDayText on tint"))
        #expect(!pairs.contains("selectedDayText on background"))
        #expect(pairs.contains("dayText on background"))
        #expect(pairs.contains("pressedText on pressedBackground"))
        #expect(!pairs.contains("pressedText on background"))
        #expect(pairs.contains("textHover on backgroundHover"))
        #expect(!pairs.contains("textHover on background"))
        #expect(pairs.contains("text on background"))
        #expect(!pairs.contains("text on backgroundHover"))
        #expect(pairs.contains("hoverIcon on hoveredBackground"))
        #expect(!pairs.contains("hoverIcon on background"))
    }

    @Test func aClearBorderIsNoBorderAndNeverFails() {
        let (inference, surfaces) = context([
            Self.color("Color.appSurfaceBasePrimary", "#FFFFFF", line: 1),
            Self.color("Field.Colors.background", "#FFFFFF", line: 2),
            TokenDefinition(qualifiedName: ["Field", "Colors", "border"], declaredKind: .color,
                            expression: .color(ColorValue(red: 0, green: 0, blue: 0, alpha: 0)), location: Self.at(3)),
        ], components: ["Field"])
        #expect(!inference.pairings(surfaces: surfaces).0.contains { $0.foreground.name == "border" })
    }

    @Test func onXTextPairsWithXSurfacesWhateverThePrefix() {
        let (inference, surfaces) = context([
            Self.color("Color.surfacesBasePrimary", "#FFFFFF", line: 1),
            Self.color("Color.surfacesBrandInteractive", "#4F46E5", line: 2),
            Self.color("Color.surfacesBrandInteractivePressed", "#3730A3", line: 3),
            Self.color("Color.surfacesSuccessSolid", "#16A34A", line: 4),
            Self.color("Color.typographyOnBrandPrimary", "#FFFFFF", line: 5),
        ], components: [])
        // `surfaces...` is the base surface too: plural role words are their singular.
        #expect(surfaces.endpoints.map(\.name) == ["surfacesBasePrimary"])
        let pairs = inference.pairings(surfaces: surfaces).0.filter { $0.foreground.name == "typographyOnBrandPrimary" }
        // The plainest brand surface: not its pressed state.
        #expect(pairs.map(\.background.name) == ["surfacesBrandInteractive"])
        #expect(pairs.allSatisfy { $0.reason == .namingConvention && $0.role == .text })
    }

    /// Sources run concurrently and never see each other's proposals; the resolver applies precedence afterwards: a
    /// gap-filling source's pairs for foregrounds an earlier source paired are dropped, the others kept, in order.
    @Test func aGapFillingSourceKeepsOnlyForegroundsNoEarlierSourcePaired() {
        let (inference, surfaces) = context([
            Self.color("Color.appSurfaceBasePrimary", "#FFFFFF", line: 1),
            Self.color("Color.appSurfaceBrand", "#4F46E5", line: 2),
            Self.color("Color.appTextPrimary", "#111111", line: 3),
            Self.color("Color.appTextSecondary", "#555555", line: 4),
        ], components: [])
        func pair(_ foreground: String, _ background: String, _ reason: PairingReason) -> Pairing {
            Pairing(component: nil, foreground: inference.tokenEndpoint(foreground)!, background: inference.tokenEndpoint(background)!,
                    role: .text, reason: reason, explanation: "test")
        }
        struct Fixed: PairingSource {
            let proposal: PairingProposal
            func propose(_ input: PairingInference, surfaces: Surfaces) -> PairingProposal { proposal }
        }
        let named = Fixed(proposal: PairingProposal(pairings: [pair("Color.appTextPrimary", "Color.appSurfaceBrand", .namingConvention)]))
        let gaps = Fixed(proposal: PairingProposal(pairings: [
            pair("Color.appTextPrimary", "Color.appSurfaceBasePrimary", .defaultSurface),
            pair("Color.appTextSecondary", "Color.appSurfaceBasePrimary", .defaultSurface),
        ], fillsGaps: true))
        let resolved = PairingResolver(sources: [named, gaps]).resolve(inference, surfaces: surfaces).pairings
            .map { "\($0.foreground.name) on \($0.background.name)" }
        #expect(resolved == ["appTextPrimary on appSurfaceBrand", "appTextSecondary on appSurfaceBasePrimary"])
        // Before the source it fills the gaps of, a gap filler's pairs all stay.
        let first = PairingResolver(sources: [gaps, named]).resolve(inference, surfaces: surfaces).pairings
        #expect(first.count == 3)
    }
}

struct PrimitiveTokenTests {
    let policy = Policy(id: "p", name: "p", sources: [], largeText: .wcag, contrast: .init(text: 4.5, largeText: 3, graphic: 3),
                        highContrast: nil, severities: [:])

    @Test func aTokenIsPrimitiveInAPrimitiveNamespaceOrWithAPrimitivePrefix() {
        #expect(policy.isPrimitive("Palette.blue500"))
        #expect(policy.isPrimitive("Color.Palette.Gray.gray90"))
        #expect(policy.isPrimitive("ElevatePrimitives.Blue._600"))
        #expect(policy.isPrimitive("Color.primBlue"))
        #expect(policy.isPrimitive("paletteRed"))
        // The prefix must be followed by an uppercase letter, and a namespace must be a whole owner.
        #expect(!policy.isPrimitive("Color.primary"))
        #expect(!policy.isPrimitive("Color.palette"))
        #expect(!policy.isPrimitive("Color.paletteblue"))
        #expect(!policy.isPrimitive("PaletteColors.blue"))
        #expect(!policy.isPrimitive("Color.Palette"))
        #expect(!policy.isPrimitive(""))
    }

    /// ASCII names and markers are compared on bytes; the rules are the Unicode path's (which a non-ASCII marker that
    /// matches nothing forces), edge cases included: empty parts, trailing dots, an empty marker.
    @Test func bytesAndCharactersGiveTheSameAnswer() {
        let names = ["Palette.blue500", "Palette.", "Palette..", ".Palette.x", "Color..Palette..x", "a.Palette", "...",
                     "Palette", "PaletteX", "primX", "prim", "x.primX.", "x.prim.X", "Color.Palette.Gray.gray90", "primary",
                     "Color.primBlue", "Color.prim_Blue", "ElevatePrimitives.Blue._600", "", ".", "a.b.c"]
        for markers in [Policy.defaultPrimitiveTokens, ["", "Palette"], ["prim"], ["a", "b"]] {
            var bytes = policy, characters = policy
            bytes.primitiveTokens = markers
            characters.primitiveTokens = markers + ["ünmatched"]
            for name in names {
                #expect(bytes.isPrimitive(name) == characters.isPrimitive(name), "\(name) with \(markers)")
            }
        }
    }

    @Test func nonASCIINamesFollowTheSameRules() {
        #expect(policy.isPrimitive("Palette.bleuÉtoile"))
        #expect(policy.isPrimitive("Thème.primÉclat"))
        #expect(!policy.isPrimitive("Thème.primé"))
        #expect(!policy.isPrimitive("Palettë.blue"))
        var custom = policy
        custom.primitiveTokens = ["Grundfarbe", "Farbtöne"]
        #expect(custom.isPrimitive("Farbtöne.rot"))
        #expect(custom.isPrimitive("Color.GrundfarbeRot"))
        #expect(!custom.isPrimitive("Color.Grundfarben"))
    }
}
