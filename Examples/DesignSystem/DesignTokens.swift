// DesignTokens.swift
// Single source of truth for the app's visual language: colors, spacing, radii and type.
//
// Layers
//   1. Palette        — primitive colors (raw hex). Only this file may use them.
//   2. Semantic colors — `Color.app*`, each with a light AND a dark value through adaptive().
//                        Components and NativeComponentStyling.swift use these, never the palette.
//   3. Spacing / radius (`CGFloat.space*`, `CGFloat.radius*`) on a 4pt grid.
//   4. Type scale      — `Font.app*`, on the shared 11/12/13/15/16/17/20/22/28/34 scale.
//
// Rules (from the app's iOS design guidelines: tokens, dark mode, accessibility)
//   • Every semantic color must pass WCAG AA in BOTH modes: 4.5:1 for text, 3:1 for UI graphics.
//   • Never Color.black / Color.white: use appSurfaceBasePrimary / appTextPrimary & friends.
//   • Every font must scale with Dynamic Type (relativeTo:).
//   • Increased-contrast values are not defined yet; iOS falls back to the light/dark values.
//
// Known accessibility debt is tracked in Examples/DesignSystem/README.md ("Expected contrast results").

import SwiftUI

// MARK: - Hex initializer

extension Color {
    /// Creates an sRGB color from "#RRGGBB", "#RRGGBBAA", "#RGB" (the "#" is optional).
    /// Malformed strings produce opaque black so a typo is visible in previews instead of crashing.
    init(hex: String) {
        let digits = hex.trimmingCharacters(in: CharacterSet.alphanumerics.inverted)
        var value: UInt64 = 0
        Scanner(string: digits).scanHexInt64(&value)
        let r, g, b, a: UInt64
        switch digits.count {
        case 3: // RGB (12-bit)
            (r, g, b, a) = ((value >> 8) * 17, (value >> 4 & 0xF) * 17, (value & 0xF) * 17, 255)
        case 6: // RRGGBB
            (r, g, b, a) = (value >> 16, value >> 8 & 0xFF, value & 0xFF, 255)
        case 8: // RRGGBBAA
            (r, g, b, a) = (value >> 24, value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
        default:
            (r, g, b, a) = (0, 0, 0, 255)
        }
        self.init(
            .sRGB,
            red: Double(r) / 255,
            green: Double(g) / 255,
            blue: Double(b) / 255,
            opacity: Double(a) / 255
        )
    }
}

// MARK: - 1. Palette (primitives)
// Raw brand and neutral colors. Do NOT reference these from components or from
// NativeComponentStyling.swift — go through a semantic token so dark mode keeps working.

enum Palette {
    // Neutrals (cool gray)
    static let white    = Color(hex: "#FFFFFF")
    static let gray50   = Color(hex: "#F9FAFB")
    static let gray100  = Color(hex: "#F3F4F6")
    static let gray200  = Color(hex: "#E5E7EB")
    static let gray300  = Color(hex: "#D1D5DB")
    static let gray500  = Color(hex: "#6B7280")
    static let gray600  = Color(hex: "#4B5563")
    static let gray900  = Color(hex: "#111827")

    // Neutrals for dark mode, aligned with iOS system grays so sheets and bars blend in.
    static let black       = Color(hex: "#000000")
    static let graphite900 = Color(hex: "#1C1C1E") // = secondarySystemBackground (dark)
    static let graphite100 = Color(hex: "#F2F2F7") // = systemGroupedBackground (light)

    // Brand
    static let indigo600   = Color(hex: "#4F46E5") // primary brand fill (light)
    static let indigoVivid = Color(hex: "#5E5CE6") // brand fill on black: brighter, still 5:1 under white
    static let indigo300   = Color(hex: "#A5B4FC")

    // Accent (interactive blue)
    static let blue700 = Color(hex: "#1D4ED8")
    static let blue600 = Color(hex: "#2563EB")
    static let blue400 = Color(hex: "#60A5FA")

    // Feedback
    static let red700     = Color(hex: "#B91C1C")
    static let red400     = Color(hex: "#F87171")
    static let emerald700 = Color(hex: "#047857")
    static let amber500   = Color(hex: "#F59E0B")
    static let amber400   = Color(hex: "#FBBF24")
}

// MARK: - Adaptive helpers

extension Color {
    /// Light/dark color from two hex strings. Resolved by UIKit at draw time, so it follows
    /// the trait collection (including per-view `.preferredColorScheme` overrides).
    fileprivate static func adaptive(light: String, dark: String) -> Color {
        Color(UIColor { traits in
            traits.userInterfaceStyle == .dark ? UIColor(Color(hex: dark)) : UIColor(Color(hex: light))
        })
    }

    /// Same as above for two existing colors (palette primitives, computed colors).
    fileprivate static func adaptive(light: Color, dark: Color) -> Color {
        Color(UIColor { traits in
            traits.userInterfaceStyle == .dark ? UIColor(dark) : UIColor(light)
        })
    }
}

// MARK: - 2. Semantic colors

extension Color {

    // ── Surfaces ──────────────────────────────────────────────────────────────

    /// Default screen, sheet, card and bar background. White / pure black.
    static let appSurfaceBasePrimary = adaptive(light: "#FFFFFF", dark: "#000000")

    /// Slightly elevated surface: menus, grouped cells, the date picker card, slider tracks.
    /// NOTE: as a *graphic* against appSurfaceBasePrimary it is ~1.1:1 (light) / ~1.2:1 (dark),
    /// so it must never be the only thing that makes a control visible (see README).
    static let appSurfaceBaseLowContrast = Color.adaptive(light: Palette.gray100, dark: Palette.graphite900)

    /// Interactive accent fill: tints, selected day circle, active slider track, progress fill.
    /// Dark value is a hand-tuned blue: white numerals keep 4.88:1, and it keeps 3.4:1 on the
    /// elevated surface (the stock #3B82F6 drops white text to 3.7:1).
    static let appSurfaceAccentPrimary = adaptive(light: "#2563EB", dark: "#2A6AE6")

    /// Brand fill: primary buttons, active carousel dot, brand chips.
    static let appSurfaceBrand = Color.adaptive(light: Palette.indigo600, dark: Palette.indigoVivid)

    /// Solid error fill: notification badges, destructive buttons.
    /// Known issue: the dark value (#F05252) is too light for white text (see README).
    static let appSurfaceErrorSolid = adaptive(light: "#B91C1C", dark: "#F05252")

    /// Solid success fill: "Saved" toasts, completed steps.
    static let appSurfaceSuccessSolid = adaptive(light: "#047857", dark: "#15803D")

    /// Solid warning fill. Always paired with appTextOnWarning (dark text), never white.
    static let appSurfaceWarningSolid = Color.adaptive(light: Palette.amber500, dark: Palette.amber400)

    /// Inverse surface for tooltips and snackbars: near-black in light mode, near-white in dark.
    /// The light value is the design file's #1C1C1E written as RGB fractions (0.11, 0.11, 0.118).
    static let appSurfaceInversePrimary = Color.adaptive(
        light: Color(red: 0.11, green: 0.11, blue: 0.118, opacity: 1),
        dark: Palette.graphite100
    )

    /// Dimming layer behind modal sheets and the full-screen loader. 60% of near-black.
    static let appSurfaceScrim = Color.adaptive(light: Palette.gray900, dark: Palette.black).opacity(0.6)

    // ── Text ──────────────────────────────────────────────────────────────────

    /// Body copy, titles, list rows.
    static let appTextPrimary = adaptive(light: "#111827", dark: "#F9FAFB")

    /// Supporting copy: subtitles, weekday headers, loader captions.
    static let appTextSecondary = adaptive(light: "#4B5563", dark: "#AEAEB2")

    /// Least prominent readable text: placeholders, inactive tab labels, slider bounds.
    /// Also used for disabled text (drawn at 0.5 opacity; WCAG exempts disabled controls).
    /// Known issue: dark value is 4.10:1 on appSurfaceBaseLowContrast (see README).
#if os(macOS)
    // macOS snapshot renderer (Tools/SnapshotRenderer) compiles this file with an AppKit shim
    // and renders marketing screenshots on a vibrancy material, where a lighter gray reads better.
    // Never built for iOS; ignore when auditing the app.
    static let appTextMuted = adaptive(light: "#8E8E93", dark: "#636366")
#else
    static let appTextMuted = adaptive(light: "#5F6672", dark: "#7C7C82")
#endif

    /// Interactive text: links, the selected option in a picker menu.
    static let appTextAccent = Color.adaptive(light: Palette.blue700, dark: Palette.blue400)

    /// Brand-colored text and icons: tab bar selection, navigation bar buttons.
    /// Known issue: the light value (#6B69EF, brand indigo 500) is 4.29:1 on white —
    /// fine for icons (3:1) but short of 4.5:1 for the 10pt selected tab label (see README).
    static let appTextBrand = adaptive(light: "#6B69EF", dark: "#A5B4FC")

    /// Validation messages and destructive menu items.
    static let appTextError = Color.adaptive(light: Palette.red700, dark: Palette.red400)

    /// Positive confirmation text ("Payment sent").
    static let appTextSuccess = adaptive(light: "#047857", dark: "#34D399")

    /// Caution text ("Expires in 2 days").
    static let appTextWarning = adaptive(light: "#B45309", dark: "#FBBF24")

    /// Text drawn on brand, accent, success and error fills. White in both modes by design.
    static let appTextOnBrandPrimary = adaptive(light: "#FFFFFF", dark: "#FFFFFF")

    /// Text drawn on appSurfaceWarningSolid (amber needs dark text in both modes).
    static let appTextOnWarning = adaptive(light: "#111827", dark: "#1C1917")

    /// Text on appSurfaceInversePrimary (tooltips, snackbars).
    static let appTextInversePrimary = Color.adaptive(light: Palette.gray50, dark: Palette.gray900)

    // static let appTextDisabled = adaptive(light: "#9CA3AF", dark: "#48484A")  // removed in 2.0: use appTextMuted + 0.5 opacity

    // ── Icons ─────────────────────────────────────────────────────────────────

    /// Default glyph color (list accessories, menu icons).
    static let appIconPrimary = adaptive(light: "#111827", dark: "#F9FAFB")

    /// Secondary glyphs: close buttons, chevrons, inactive states.
    static let appIconMuted = Color.adaptive(light: Palette.gray500, dark: Color(hex: "#8E8E93"))

    /// Interactive glyphs that are not inside a tinted control.
    static let appIconAccent = adaptive(light: "#2563EB", dark: "#60A5FA")

    /// Glyphs drawn on appSurfaceBrand (e.g. the icon inside a primary button).
    static let appIconOnBrandPrimary = adaptive(light: "#FFFFFF", dark: "#FFFFFF")

    // ── Borders ───────────────────────────────────────────────────────────────

    /// Default hairline: separators, input outlines, drag indicators, thumb outlines.
    /// Known issue: light value is 1.47:1 on white (graphics need 3:1). Dark was raised
    /// to #737378 in 1.4 and passes. See README.
    static let appBorderDefault = Color.adaptive(light: Palette.gray300, dark: Color(hex: "#737378"))

    /// Quieter hairline between rows of a menu or list. Same light-mode caveat as appBorderDefault.
    static let appBorderMuted = adaptive(light: "#E5E7EB", dark: "#636366")

    /// Validation outline around a field in error.
    static let appBorderError = adaptive(light: "#DC2626", dark: "#F87171")

    // ── Aliases ───────────────────────────────────────────────────────────────
    // Older names kept so existing screens compile. Prefer the semantic names above.

    /// Screen background (pre-2.0 name).
    static var appBackground: Color { appSurfaceBasePrimary }

    /// Elevated card background (pre-2.0 name).
    static var appCardBackground: Color { Color.appSurfaceBaseLowContrast }

    /// Inline links in body copy.
    static let appTextLink = Color.appTextAccent

#if DEBUG
    /// Debug-only: outlines view frames in the component showcase ("Show layout bounds").
    /// Never ships; release builds do not contain this token.
    static let appDebugLayoutOutline = adaptive(light: "#FF2D55", dark: "#FF375F")
#endif
}

// MARK: - 3. Spacing and radius (4pt grid)

extension CGFloat {
    // Spacing
    static let space1: CGFloat = 4     // icon ↔ label, dot gaps
    static let space2: CGFloat = 8     // compact padding
    static let space3: CGFloat = 12    // row padding, card gaps
    static let space4: CGFloat = 16    // standard component padding (iOS default margin)
    static let space5: CGFloat = 20
    static let space6: CGFloat = 24    // section spacing
    static let space8: CGFloat = 32    // large section dividers
    static let space10: CGFloat = 40
    static let space12: CGFloat = 48   // major section spacing
    static let space16: CGFloat = space8 * 2  // hero / onboarding top inset

    // Corner radius
    static let radiusXS: CGFloat = 4     // badges, tags
    static let radiusSM: CGFloat = 8     // buttons, inputs, tooltips
    static let radiusMD: CGFloat = 12    // cards, menus, picker triggers
    static let radiusLG: CGFloat = 16    // large cards, date picker card
    static let radiusXL: CGFloat = 24    // bottom sheets
    static let radius2XL: CGFloat = 32
    static let radiusFull: CGFloat = 999 // capsules

    // Accessibility
    static let minTouchTarget: CGFloat = 44 // HIG minimum hit area
}

// MARK: - 4. Type scale

extension Font {
    /// House convention from the shared type scale (ios-native-app-design.md §1):
    /// `Font.system(size:).relativeTo(.style)` declares which Dynamic Type style a fixed-size
    /// system font follows. In the app this is implemented in Typography+Scaling.swift with
    /// UIFontMetrics; this example keeps a pass-through so the file stands alone.
    func relativeTo(_ style: Font.TextStyle) -> Font {
        self
    }

    /// Inter at a design size that scales with Dynamic Type like `style`.
    static func appInter(size: CGFloat, face: String, relativeTo style: Font.TextStyle) -> Font {
        .custom(face, size: size, relativeTo: style)
    }

    // Titles
    static let appTitleLarge  = Font.system(size: 34, weight: .bold).relativeTo(.largeTitle)
    static let appTitleMedium = appInter(size: 22, face: "Inter-SemiBold", relativeTo: .title2)
    static let appTitleSmall  = Font.system(size: 17, weight: .semibold).relativeTo(.headline)

    // Body
    static let appBodyLarge     = appInter(size: 17, face: "Inter-Regular", relativeTo: .body)
    static let appBodyLargeEm   = appInter(size: 17, face: "Inter-SemiBold", relativeTo: .body)
    static let appBodyMedium    = appInter(size: 16, face: "Inter-Regular", relativeTo: .callout)
    static let appBodyMediumEm  = appInter(size: 16, face: "Inter-SemiBold", relativeTo: .callout)
    static let appBodySmall     = appInter(size: 13, face: "Inter-Regular", relativeTo: .footnote)

    // Captions and labels
    static let appCaptionMedium = appInter(size: 12, face: "Inter-Regular", relativeTo: .caption)
    static let appLabelMedium   = Font.system(size: 13, weight: .medium).relativeTo(.footnote)

    // Known issue: fixedSize: — this caption stays 11pt at every Dynamic Type size.
    // Used by slider bound labels. Fix: appInter(size: 11, face: "Inter-Regular", relativeTo: .caption2).
    static let appCaptionSmall  = Font.custom("Inter-Regular", fixedSize: 11)

    // Calls to action (buttons, toolbar actions)
    static let appCTAMedium = appInter(size: 16, face: "Inter-SemiBold", relativeTo: .body)
    static let appCTASmall  = appInter(size: 14, face: "Inter-SemiBold", relativeTo: .subheadline)
}
