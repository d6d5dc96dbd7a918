#!/usr/bin/python3
"""The script a user would write instead of a11yd (issue 12, item 5): the peer `a11y-bench peer` runs against.

Finds `static let X = adaptive(light: "#..", dark: "#..")` with a regex in a design system's Swift files, resolves
component styling aliases (`static let label = Color.benchInk12` inside `enum ...Styling { struct Colors {`), pairs
each text or graphic color of a component with its `background`, and prints the WCAG 2.x contrast ratio of each pair
in light and dark as JSON.

The ratios come from one of two places:
  --contrast stdlib     (the default) ten lines of standard-library arithmetic below: the WCAG 2.x formula, as
                        Debian's /usr/bin/python3 runs it with nothing installed.
  --contrast coloraide  the `coloraide` library's `contrast(..., method="wcag21")`, as the issue's script does. Debian
                        packages no coloraide and set-up installs nothing with pip: it must be importable already
                        (`a11y-bench peer` puts .build/peer/site on PYTHONPATH; BENCHMARKS.md says how it was put there).
Usage: /usr/bin/python3 bench/peer_audit.py [--contrast stdlib|coloraide] DIR
"""
import json
import os
import re
import sys

TOKEN = re.compile(r'static let (\w+) = adaptive\(light: "#([0-9A-Fa-f]{6})", dark: "#([0-9A-Fa-f]{6})"\)')
ENUM = re.compile(r'^\s*enum (\w+)')
ALIAS = re.compile(r'^\s*static let (\w+) = Color\.(\w+)')
TEXT_WORDS = ("label", "text", "title")  # the rest is a graphic (icon, border): 3:1 instead of 4.5:1


def luminance(hex6):
    """WCAG 2.x relative luminance: sRGB transfer function undone per channel, then the Rec. 709 weights."""
    def linear(byte):
        c = byte / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (int(hex6[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def stdlib_contrast(a, b):
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def coloraide_contrast():
    try:
        from coloraide import Color
    except ImportError:
        sys.exit("peer_audit.py: error: coloraide is not importable (Debian packages none; set-up installs nothing "
                 "with pip): put a folder that holds it on PYTHONPATH (BENCHMARKS.md, \"The issue's peer\"), or use "
                 "--contrast stdlib")
    return lambda a, b: Color("#" + a).contrast(Color("#" + b), method="wcag21")


def main(root, contrast):
    tokens = {}  # name -> {"light": hex, "dark": hex}
    components = {}  # enum name -> {property: token name}
    for folder, _, files in os.walk(root):
        for name in sorted(f for f in files if f.endswith(".swift")):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                text = f.read()
            for m in TOKEN.finditer(text):
                tokens[m.group(1)] = {"light": m.group(2).upper(), "dark": m.group(3).upper()}
            component = None
            for line in text.splitlines():
                if m := ENUM.match(line):
                    component = m.group(1)
                elif component and (m := ALIAS.match(line)):
                    components.setdefault(component, {})[m.group(1)] = m.group(2)
    pairs = []
    for component, colors in sorted(components.items()):
        background = colors.get("background")
        if background not in tokens:
            continue
        for prop, token in colors.items():
            if token not in tokens or "background" in prop.lower():
                continue
            text = any(w in prop.lower() for w in TEXT_WORDS)
            required = 4.5 if text else 3.0
            for appearance in ("light", "dark"):
                ratio = contrast(tokens[token][appearance], tokens[background][appearance])
                pairs.append({"component": component, "foreground": prop, "background": "background",
                              "appearance": appearance, "role": "text" if text else "graphic",
                              "ratio": ratio, "required": required, "pass": ratio >= required})
    failing = sum(1 for p in pairs if not p["pass"])
    json.dump({"pairs": pairs, "summary": {"tokens": len(tokens), "components": len(components),
                                           "pairs": len(pairs), "failingPairs": failing}}, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    # Read by hand: importing argparse would add its own start-up to the time measured.
    arguments = sys.argv[1:]
    source = "stdlib"
    if len(arguments) == 3 and arguments[0] == "--contrast" and arguments[1] in ("stdlib", "coloraide"):
        source, arguments = arguments[1], arguments[2:]
    if len(arguments) != 1 or arguments[0].startswith("-"):
        sys.exit("usage: peer_audit.py [--contrast stdlib|coloraide] DIR")
    main(arguments[0], coloraide_contrast() if source == "coloraide" else stdlib_contrast)
