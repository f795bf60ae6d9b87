"""Make the browser's fonts: small WOFF2 subsets of Noto fonts, written to src/unokart/web/fonts/.

The browser client ships its own fonts so that a machine without Tamil, Kannada,
Telugu or Arabic fonts can still read the game (issue 14). Noto is under the SIL
Open Font License 1.1 (web/fonts/OFL.txt), which allows subsetting and
redistribution with the licence.

Source: Debian's fonts-noto-core (20201225-1), without installing it:

    apt-get download fonts-noto-core && dpkg-deb -x fonts-noto-core_*.deb /tmp/noto
    .venv-dev/bin/pip install fonttools brotli
    .venv-dev/bin/python tools/make_fonts.py /tmp/noto/usr/share/fonts/truetype/noto

Each subset keeps a whole script block with all its OpenType layout features
(conjuncts, vowel signs and Arabic joining need them); the name table is kept,
licence included. The script also writes web/fonts.css, which declares each
file with @font-face and the same unicode-range, so a page downloads only the
scripts it shows (style.css puts the families first in every font stack).
tests/web/test_web_fonts.py checks that every catalogue character has a glyph.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset

OUT = Path(__file__).resolve().parents[1] / "src" / "unokart" / "web" / "fonts"

# Marks and joiners every Indic and Arabic subset needs (ZWNJ/ZWJ, dotted circle for a lone vowel sign).
JOINERS = "U+200C-200D,U+25CC"

# file stem -> (CSS family, weight, source font, unicode ranges); fonts.css is written from this table.
FONTS = {
    "unokart-latin-400": ("UnoKart Latin", 400, "NotoSans-Regular.ttf", "U+0000-00FF,U+0131,U+0152-0153,U+02C6,U+02DA,U+02DC,U+2000-200B,U+2010-206F,U+20AC,U+2122,U+2212"),
    "unokart-latin-700": ("UnoKart Latin", 700, "NotoSans-Bold.ttf", "U+0000-00FF,U+0131,U+0152-0153,U+02C6,U+02DA,U+02DC,U+2000-200B,U+2010-206F,U+20AC,U+2122,U+2212"),
    "unokart-tamil-400": ("UnoKart Tamil", 400, "NotoSansTamil-Regular.ttf", f"U+0B80-0BFF,{JOINERS}"),
    "unokart-tamil-700": ("UnoKart Tamil", 700, "NotoSansTamil-Bold.ttf", f"U+0B80-0BFF,{JOINERS}"),
    "unokart-kannada-400": ("UnoKart Kannada", 400, "NotoSansKannada-Regular.ttf", f"U+0C80-0CFF,{JOINERS}"),
    "unokart-kannada-700": ("UnoKart Kannada", 700, "NotoSansKannada-Bold.ttf", f"U+0C80-0CFF,{JOINERS}"),
    "unokart-telugu-400": ("UnoKart Telugu", 400, "NotoSansTelugu-Regular.ttf", f"U+0C00-0C7F,{JOINERS}"),
    "unokart-telugu-700": ("UnoKart Telugu", 700, "NotoSansTelugu-Bold.ttf", f"U+0C00-0C7F,{JOINERS}"),
    # Naskh, the style Sindhi is printed in; it has ۽ and ۾ (U+06FD, U+06FE).
    "unokart-arabic-400": ("UnoKart Arabic", 400, "NotoNaskhArabic-Regular.ttf", f"U+0600-06FF,U+0750-077F,U+FB50-FDFF,U+FE70-FEFF,U+200E-200F,{JOINERS}"),
    "unokart-arabic-700": ("UnoKart Arabic", 700, "NotoNaskhArabic-Bold.ttf", f"U+0600-06FF,U+0750-077F,U+FB50-FDFF,U+FE70-FEFF,U+200E-200F,{JOINERS}"),
    # The few symbols the table draws (direction, skip, colour letters' shapes).
    "unokart-symbols-shapes": ("UnoKart Symbols", 400, "NotoSansSymbols2-Regular.ttf", "U+25A0-25FF,U+2605,U+275A"),
    "unokart-symbols-arrows": ("UnoKart Symbols", 400, "NotoSansMath-Regular.ttf", "U+2190-21FF,U+2298"),
}


CSS_HEAD = """/* Written by tools/make_fonts.py: the shipped Noto subsets (SIL OFL 1.1, fonts/OFL.txt).
   Each face covers one script (unicode-range), so a page downloads only what it shows. */
"""


def make(source_dir: Path) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    css = [CSS_HEAD]
    for stem, (family, weight, source, ranges) in FONTS.items():
        options = subset.Options()
        options.flavor = "woff2"
        options.layout_features = ["*"]
        options.name_IDs = ["*"]  # keep the copyright and licence records
        options.name_languages = ["*"]
        options.notdef_outline = True
        options.hinting = False  # browsers hint themselves; halves the files
        font = subset.load_font(str(source_dir / source), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=subset.parse_unicodes(ranges))
        subsetter.subset(font)
        target = OUT / f"{stem}.woff2"
        subset.save_font(font, str(target), options)
        print(f"{target.name}: {target.stat().st_size:,} bytes from {source}")
        css.append(f'@font-face {{ font-family: "{family}"; font-weight: {weight}; font-style: normal; font-display: swap;\n'
                   f'  src: url("/static/fonts/{stem}.woff2") format("woff2");\n  unicode-range: {ranges.replace(",", ", ")}; }}\n')
    (OUT.parent / "fonts.css").write_text("".join(css), encoding="utf-8")


if __name__ == "__main__":
    make(Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/truetype/noto"))
