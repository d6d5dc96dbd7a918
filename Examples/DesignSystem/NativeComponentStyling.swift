// NativeComponentStyling.swift
// Style configuration for the 13 native SwiftUI component wrappers in Components/Native/.
//
// ┌──────────────────────────────────────────────────────────────────────────────┐
// │ HOW TO USE THIS FILE                                                         │
// │                                                                              │
// │ One enum per component, each with up to three structs:                       │
// │   Colors     — Color tokens for every visual state                           │
// │   Layout     — spacing, radius and sizes                                     │
// │   Typography — Font tokens                                                   │
// │ To restyle a component, change the token references in its section and       │
// │ build: every screen using the wrapper updates.                               │
// │                                                                              │
// │ TOKEN QUICK REFERENCE (all defined in DesignTokens.swift)                    │
// │   Colors  : Color.appSurface*, Color.appText*, Color.appIcon*, Color.appBorder*│
// │   Spacing : CGFloat.space1 (4) … space12 (48) — 4pt grid                      │
// │   Radius  : CGFloat.radiusXS (4) radiusSM (8) radiusMD (12) radiusLG (16)     │
// │             radiusXL (24) radius2XL (32)                                     │
// │   Fonts   : Font.appBodyMedium, .appTitleSmall, .appCTAMedium …              │
// │                                                                              │
// │ RULES                                                                        │
// │   • Never a hex literal, a Palette primitive, Color.black or Color.white.    │
// │   • Text pairs need 4.5:1 and graphics 3:1 against their background, in      │
// │     light AND dark mode. `a11yctl audit Examples/DesignSystem` checks this.  │
// │   • Disabled states reuse the enabled tokens at 0.5 opacity (house rule).    │
// └──────────────────────────────────────────────────────────────────────────────┘

import SwiftUI

// MARK: - 1. Picker / Dropdown / Select
// Native SwiftUI view : Picker with .pickerStyle(.menu) or .pickerStyle(.wheel)
// Wrapper             : Components/Native/AppNativePicker.swift

enum NativePickerStyling {

    struct Colors {
        // Accent that iOS applies to the checkmark of the selected row (.menu),
        // the chevron on the trigger, and the highlight band (.wheel).
        // Use Color.appSurfaceBrand for a brand-colored picker.
        static let tint = Color.appSurfaceAccentPrimary

        // Text of the closed trigger (the current value, or the field label).
        static let label = Color.appTextPrimary

        // Text shown on the trigger while no option is chosen ("Select a country").
        static let placeholder = Color.appTextMuted

        // Text of the currently selected option inside the open menu, so users can
        // find their current choice at a glance.
        static let selectedText = Color.appTextAccent

        // Text of every unselected option inside the open menu.
        static let optionText = Color.appTextPrimary

        // Fill of the floating menu card that opens from the trigger.
        // appSurfaceBaseLowContrast gives a slightly elevated look;
        // appSurfaceBasePrimary gives a plain white / pure-black card.
        static let menuBackground = Color.appSurfaceBaseLowContrast

        // Label color when AppNativePicker(isDisabled: true). The whole container is
        // also drawn at 0.5 opacity (design-system disabled convention).
        static let disabled = Color.appTextMuted

        // 1.5pt outline around the trigger when showError == true.
        static let errorBorder = Color.appBorderError

        // Validation message shown under the picker ("Choose a delivery slot").
        static let errorText = Color.appTextError
    }

    struct Layout {
        // Corner radius of the trigger container.
        static let cornerRadius = CGFloat.radiusMD      // 12pt

        // Vertical padding inside the trigger container.
        static let paddingV = CGFloat.space2            // 8pt

        // Horizontal padding inside the trigger container.
        static let paddingH = CGFloat.space4            // 16pt

        // Minimum height of the trigger: keeps the 44pt hit area even with a
        // single short line of text.
        static let minHeight = CGFloat.minTouchTarget   // 44pt

        // Outline width in the error state.
        static let errorBorderWidth: CGFloat = 1.5

        // Outline width in the default state.
        static let defaultBorderWidth: CGFloat = 1.0
    }

    struct Typography {
        // Trigger label and option rows.
        static let label = Font.appBodyMedium

        // Selected option row inside the menu.
        static let selected = Font.appBodyMediumEm

        // Helper / validation text below the picker.
        static let helper = Font.appCaptionMedium
    }
}

// MARK: - 2. Date / Time / DateTime Picker
// Native SwiftUI view : DatePicker with .graphical / .compact / .wheel style
// Wrapper             : Components/Native/AppDateTimePicker.swift

enum NativeDatePickerStyling {

    struct Colors {
        // Accent applied by iOS to:
        //   • the selected-day circle in the .graphical calendar
        //   • the "today" numeral
        //   • the highlight band of the .wheel drums
        //   • the date button of the .compact style
        static let tint = Color.appSurfaceAccentPrimary

        // Text passed as `label:`. In .compact it sits left of the date button;
        // in .graphical it is the month/year header.
        static let label = Color.appTextPrimary

        // Fill of the .graphical calendar card.
        static let background = Color.appSurfaceBaseLowContrast

        // Numeral of the selected day. iOS draws it ON the `tint` circle, not on
        // `background` — this pairing is declared in .a11yd.yml.
        static let selectedDayText = Color.appTextOnBrandPrimary  // white on accent blue

        // Numerals of selectable, unselected days.
        static let dayText = Color.appTextPrimary

        // Numerals of days outside minimumDate…maximumDate (not selectable).
        static let disabledDayText = Color.appTextMuted

        // Weekday column headers (Mo, Tu, We …).
        static let weekdayHeader = Color.appTextSecondary
    }

    struct Layout {
        // Corner radius of the .graphical calendar card.
        static let graphicalCornerRadius = CGFloat.radiusLG   // 16pt

        // Vertical gap between the label and the picker.
        static let labelSpacing = CGFloat.space2              // 8pt
    }

    struct Typography {
        // Label passed to DatePicker.
        static let label = Font.appBodyMedium

        // Month/year header. iOS draws its own header; this token styles any
        // supplementary Text you place around the picker.
        static let monthYear = Font.appBodyLargeEm

        // Formatted date next to the .compact button (supplementary labels only).
        static let compactDate = Font.appBodyMedium
    }
}

// MARK: - 3. Page Header (Large + Inline)
// Native SwiftUI view : NavigationStack + .toolbar {} modifiers
// Wrapper             : Components/Native/AppPageHeader.swift (ViewModifier)
//
// Apply as:  .appPageHeader(title: "Orders", displayMode: .large, trailingActions: [...])

enum NativePageHeaderStyling {

    struct Colors {
        // Fill of the navigation bar, applied with .toolbarBackground(_:for:).
        // appSurfaceBrand gives a bold brand bar (then switch titles to appTextOnBrandPrimary).
        static let background = Color.appSurfaceBasePrimary

        // Tint of the back chevron, the "Back" text and every ToolbarItem button.
        static let tint = Color.appTextBrand

        // Large title (displayMode == .large).
        static let largeTitle = Color.appTextPrimary

        // Inline title (displayMode == .inline, or after scrolling).
        static let inlineTitle = Color.appTextPrimary

        // 1px hairline under the bar. Color.clear removes it.
        static let separator = Color.appBorderDefault
    }

    struct Typography {
        // Large title. iOS scales the system title itself; this token is used when
        // a custom title view is supplied.
        static let largeTitle = Font.appTitleLarge

        // Inline (collapsed) title.
        static let inlineTitle = Font.appTitleSmall

        // Labels of trailing ToolbarItem buttons ("Edit", "Done").
        static let trailingAction = Font.appCTAMedium
    }
}

// MARK: - 4. Bottom Sheet
// Native SwiftUI view : .sheet() + .presentationDetents() + presentation modifiers
// Wrapper             : Components/Native/AppBottomSheet.swift (ViewModifier)
//
// Apply as:
//   .appBottomSheet(isPresented: $showFilters, detents: [.medium, .large]) {
//       FiltersView()
//   }

enum NativeBottomSheetStyling {

    struct Colors {
        // Fill of the sheet, applied with .presentationBackground(_:).
        // appSurfaceBaseLowContrast gives an off-white elevated sheet.
        static let sheetBackground = Color.appSurfaceBasePrimary

        // Pill at the top of the sheet. iOS draws its own indicator; this color is
        // for the custom indicator drawn by sheets that hide the native one.
        static let dragIndicator = Color.appBorderDefault

        // "×" button in the optional sheet header.
        static let closeIcon = Color.appIconMuted
    }

    struct Layout {
        // Top corner radius, applied with .presentationCornerRadius(_:).
        static let cornerRadius = CGFloat.radiusXL      // 24pt

        // Native drag indicator visibility:
        //   .visible / .hidden (custom header) / .automatic (system decides).
        static let dragIndicatorVisibility: Visibility = .visible

        // Detents offered when the caller passes none. Standard detents only.
        static let defaultDetents: Set<PresentationDetent> = [.medium, .large]

        // Horizontal padding around the sheet content.
        static let contentPaddingH = CGFloat.space4     // 16pt

        // Top padding above the sheet content.
        static let contentPaddingTop = CGFloat.space3   // 12pt
    }
}

// MARK: - 5. Bottom Navigation Bar
// Native SwiftUI view : TabView
// Wrapper             : Components/Native/AppBottomNavBar.swift
//
// IMPORTANT: call NativeBottomNavStyling.applyAppearance() once in the App's init(),
//            before the first TabView is created — UITabBar.appearance() only
//            affects bars created after it is set.

enum NativeBottomNavStyling {

    struct Colors {
        // Fill of the tab bar (UITabBarAppearance.backgroundColor).
        static let background = Color.appSurfaceBasePrimary

        // Glyph of the selected tab.
        static let activeIcon = Color.appTextBrand

        // Label under the selected tab's glyph.
        static let activeLabel = Color.appTextBrand

        // Glyphs of unselected tabs.
        static let inactiveIcon = Color.appTextMuted

        // Labels of unselected tabs.
        static let inactiveLabel = Color.appTextMuted

        // Fill of the numeric badge on a tab glyph.
        static let badge = Color.appSurfaceErrorSolid

        // Count inside the badge. Drawn on `badge` — declared in .a11yd.yml.
        static let badgeText = Color.appTextOnBrandPrimary  // white on red
    }

    struct Typography {
        // Point size of the tab labels. UITabBarAppearance takes a UIFont, not a
        // SwiftUI Font token, so this is a raw size (the system tab bar uses 10pt;
        // note it is below appCaptionSmall's 11pt and does not scale).
        static let labelSize: CGFloat = 10

        // Weight of the selected tab label.
        static let activeLabelWeight: UIFont.Weight = .semibold

        // Weight of unselected tab labels.
        static let inactiveLabelWeight: UIFont.Weight = .regular
    }

    struct Layout {
        // Vertical offset of the glyph inside its cell (positive moves it down).
        // Keep 0 for system positioning.
        static let iconVerticalOffset: CGFloat = 0
    }

    // Applies the colors and fonts above to every UITabBar.
    // Call ONCE from the App's init(), before any scene renders.
    static func applyAppearance() {
        let appearance = UITabBarAppearance()
        appearance.configureWithOpaqueBackground()
        appearance.backgroundColor = UIColor(Colors.background)

        // Selected tab item
        appearance.stackedLayoutAppearance.selected.iconColor =
            UIColor(Colors.activeIcon)
        appearance.stackedLayoutAppearance.selected.titleTextAttributes = [
            .foregroundColor: UIColor(Colors.activeLabel),
            .font: UIFont.systemFont(ofSize: Typography.labelSize,
                                     weight: Typography.activeLabelWeight)
        ]
        appearance.stackedLayoutAppearance.selected.badgeBackgroundColor =
            UIColor(Colors.badge)
        appearance.stackedLayoutAppearance.selected.badgeTextAttributes = [
            .foregroundColor: UIColor(Colors.badgeText)
        ]

        // Unselected tab items
        appearance.stackedLayoutAppearance.normal.iconColor =
            UIColor(Colors.inactiveIcon)
        appearance.stackedLayoutAppearance.normal.titleTextAttributes = [
            .foregroundColor: UIColor(Colors.inactiveLabel),
            .font: UIFont.systemFont(ofSize: Typography.labelSize,
                                     weight: Typography.inactiveLabelWeight)
        ]
        appearance.stackedLayoutAppearance.normal.badgeBackgroundColor =
            UIColor(Colors.badge)
        appearance.stackedLayoutAppearance.normal.badgeTextAttributes = [
            .foregroundColor: UIColor(Colors.badgeText)
        ]

        UITabBar.appearance().standardAppearance = appearance
        UITabBar.appearance().scrollEdgeAppearance = appearance
    }
}

// MARK: - 6. Progress Loader (Indefinite + Definite)
// Native SwiftUI view : ProgressView (circular) / ProgressView(value:total:) (linear)
// Wrapper             : Components/Native/AppProgressLoader.swift

enum NativeProgressLoaderStyling {

    struct Colors {
        // Spinner color (indefinite) or filled part of the bar (definite).
        static let tint = Color.appSurfaceAccentPrimary

        // Unfilled part of the linear bar. SwiftUI does not expose the track color,
        // so AppProgressLoader draws this capsule under the native bar.
        static let track = Color.appSurfaceBaseLowContrast

        // Optional caption under the loader ("Uploading 3 of 8…").
        static let label = Color.appTextSecondary
    }

    struct Layout {
        // Scale of the circular spinner: 1.0 native (~20pt), 1.5 prominent, 2.0 full-screen.
        static let scale: CGFloat = 1.0

        // Height of the linear track.
        static let linearTrackHeight: CGFloat = 6

        // Corner radius of the linear track ends (half the height = capsule).
        static let linearTrackRadius: CGFloat = 3

        // Gap between the indicator and the caption.
        static let labelSpacing = CGFloat.space2    // 8pt
    }

    struct Typography {
        // Caption under the loader.
        static let label = Font.appBodyMedium
    }
}

// MARK: - 7. Carousel + Carousel Dots
// Native SwiftUI view : TabView with .tabViewStyle(.page), or
//                       ScrollView with .scrollTargetBehavior(.paging)
// Wrapper             : Components/Native/AppCarousel.swift

enum NativeCarouselStyling {

    struct Colors {
        // Dot of the visible page (drawn as a wider capsule, see Layout.dotActiveWidth).
        static let dotActive = Color.appSurfaceBrand

        // Dots of the other pages.
        static let dotInactive = Color.appSurfaceBaseLowContrast

        // Fill of the row holding the dots. Color.clear draws the dots directly on
        // whatever is underneath (the screen background).
        static let dotRowBackground = Color.clear
    }

    struct Layout {
        // Height of the paged TabView frame; match it to your card or image height.
        static let pagedHeight: CGFloat = 240

        // Gap between cards in the scroll-snap style.
        static let cardSpacing = CGFloat.space3    // 12pt

        // Size of an inactive dot. Dots are tappable (jump to page).
        static let dotInactiveWidth: CGFloat = 6
        static let dotHeight: CGFloat = 6

        // Width of the active capsule.
        static let dotActiveWidth: CGFloat = 18

        // Gap between dots.
        static let dotGap = CGFloat.space1         // 4pt

        // Gap between the carousel content and the dot row.
        static let dotsSpacing = CGFloat.space3    // 12pt
    }
}

// MARK: - 8. Context Menu + Popover Menu
// Native SwiftUI views : .contextMenu {} (long press) and .popover(isPresented:) (tap)
// Wrapper              : Components/Native/AppContextMenu.swift
//
// iOS styles .contextMenu itself; these tokens drive AppPopoverMenu, the custom
// card shown by the tap-triggered popover.

enum NativeContextMenuStyling {

    struct Colors {
        // Label of regular menu rows.
        static let itemText = Color.appTextPrimary

        // Leading SF Symbol of regular menu rows.
        static let itemIcon = Color.appIconPrimary

        // Label and glyph of rows with role: .destructive ("Delete").
        static let destructiveText = Color.appTextError

        // Fill of the AppPopoverMenu card.
        static let background = Color.appSurfaceBasePrimary

        // 1px line between rows.
        static let rowDivider = Color.appBorderMuted
    }

    struct Layout {
        // Minimum card width, so short menus do not look cramped.
        static let minWidth: CGFloat = 180

        // Horizontal padding inside a row.
        static let itemPaddingH = CGFloat.space4     // 16pt

        // Vertical padding inside a row (12 + 12 + one line of body text ≥ 44pt).
        static let itemPaddingV = CGFloat.space3     // 12pt

        // Gap between a row's glyph and its label.
        static let itemIconSpacing = CGFloat.space2  // 8pt

        // Corner radius of the card.
        static let cornerRadius = CGFloat.radiusMD   // 12pt
    }

    struct Typography {
        // Row labels.
        static let item = Font.appBodyMedium
    }
}

// MARK: - 9. Action Sheet
// Native SwiftUI view : .confirmationDialog(_:isPresented:titleVisibility:actions:message:)
// Wrapper             : Components/Native/AppActionSheet.swift (ViewModifier)
//
// iOS draws confirmation dialogs itself; colors cannot be overridden. What you control:
//   • role: .destructive → iOS draws the action in red
//   • role: .cancel      → iOS places it last, in bold
// So there are no Colors/Layout structs here.

enum NativeActionSheetStyling {

    // AppActionSheetAction roles:
    //   .default(label)     → standard tinted action
    //   .destructive(label) → red
    //   .cancel(label)      → bottom, bold
    //
    // Need brand colors? Use AppBottomSheet with AppButton rows instead.

    struct Typography {
        // Supplementary Text in the message: slot (the title font is system-controlled).
        static let message = Font.appBodyMedium
    }
}

// MARK: - 10. Alert Popup
// Native SwiftUI view : .alert(_:isPresented:actions:message:)
// Wrapper             : Components/Native/AppAlertPopup.swift (ViewModifier)
//
// iOS owns the alert's background, blur and title style. Only button roles and the
// message Text are configurable without private API.

enum NativeAlertStyling {

    // Guideline: at most two actions — one primary (nil role) and one .cancel.
    // More choices belong in AppActionSheet.

    struct Typography {
        // Message Text passed in the message: slot.
        static let message = Font.appBodyMedium
    }
}

// MARK: - 11. Tooltip
// Native SwiftUI view : .popover(isPresented:arrowEdge:content:)
// Wrapper             : Components/Native/AppTooltip.swift
//
// iOS has no tooltip API; AppTooltip uses .popover with
// .presentationCompactAdaptation(.popover) so it stays a bubble on iPhone.

enum NativeTooltipStyling {

    struct Colors {
        // Bubble fill: inverse surface so it stands out from any content.
        static let background = Color.appSurfaceInversePrimary  // near-black in light mode

        // Bubble text.
        static let text = Color.appTextInversePrimary           // near-white in light mode
    }

    struct Layout {
        // Corner radius of the bubble.
        static let cornerRadius = CGFloat.radiusSM    // 8pt

        // Horizontal padding inside the bubble.
        static let paddingH = CGFloat.space3          // 12pt

        // Vertical padding inside the bubble.
        static let paddingV = CGFloat.space2          // 8pt

        // Width at which the text wraps.
        static let maxWidth: CGFloat = 240

        // Edge the arrow points from: .top → bubble below the anchor, .bottom → above.
        static let defaultArrowEdge: Edge = .top
    }

    struct Typography {
        // Bubble text.
        static let content = Font.appBodySmall
    }
}

// MARK: - 12. Color Picker
// Native SwiftUI view : ColorPicker
// Wrapper             : Components/Native/AppColorPicker.swift
//
// The color wheel sheet is system UI. Only the label and the tint around the
// trigger swatch are configurable.

enum NativeColorPickerStyling {

    struct Colors {
        // Label next to the swatch.
        static let label = Color.appTextPrimary

        // Tint of the interactive chrome around the swatch (the swatch itself
        // always shows the chosen color).
        static let tint = Color.appSurfaceAccentPrimary
    }

    struct Typography {
        // Label next to the swatch.
        static let label = Font.appBodyMedium
    }
}

// MARK: - 13. Range Slider
// Native SwiftUI view : Two overlapping Slider views + custom track overlay
// Wrapper             : Components/Native/AppRangeSlider.swift
//
// SwiftUI has no range slider. AppRangeSlider stacks two Sliders in a ZStack
// (lower bound, upper bound), hides their tracks with .tint(.clear) and draws the
// active segment between the two thumbs itself.

enum NativeRangeSliderStyling {

    struct Colors {
        // Segment between the two thumbs.
        static let trackActive = Color.appSurfaceAccentPrimary

        // Segments outside the selected range.
        static let trackBackground = Color.appSurfaceBaseLowContrast

        // Thumb fill. The native Slider thumb is always system white; this token is
        // reserved for the planned custom-gesture implementation.
        static let thumb = Color.appSurfaceBasePrimary

        // Outline / shadow that separates the thumb from the track.
        static let thumbShadow = Color.appBorderDefault

        // Min / max bound labels under the slider ("$10", "$250").
        static let label = Color.appTextMuted
    }

    struct Layout {
        // Track thickness.
        static let trackHeight: CGFloat = 4

        // Track end radius (half the height = pill).
        static let trackCornerRadius: CGFloat = 2

        // Height of the whole control including the thumbs' hit area (≥ 44pt).
        static let totalHeight: CGFloat = 44

        // Thumb diameter (informational — the native Slider sets it).
        static let thumbDiameter: CGFloat = 24

        // Gap between the track and the bound labels.
        static let labelSpacing = CGFloat.space1  // 4pt
    }

    struct Typography {
        // Min / max bound labels.
        static let boundLabel = Font.appCaptionSmall
    }
}
