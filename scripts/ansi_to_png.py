#!/usr/bin/env python3
"""Draws a tmux pane capture (`capture-pane -p -e -N`: text with SGR colours) as a PNG.

    python3 scripts/ansi_to_png.py shot.ansi shot.png --cols 120 --rows 40 \
        [--title "roster"] [--cursor ROW,COL]

The capture is fed to pyte, a terminal emulator, which lays it out in a cell grid with
colours, bold, dim, underline and reverse, and wide characters (CJK, emoji) in two cells,
as tmux's own grid has them. Pillow draws each cell with the first font of FONTS whose
character map (read with fontTools) has the character: DejaVu Sans Mono for Latin, Greek,
Cyrillic, Arabic (unshaped, one letter a cell, as a terminal shows it) and box drawing;
Noto CJK; Noto Sans, its Indic and symbol fonts; Symbola; Noto Color Emoji, first for
emoji. The cell is the main font's own height, so box drawing joins; block elements are
drawn as rectangles. A glyph from a wider font is shrunk to fit its cells. Fonts come from
Debian packages (scripts/requirements-screenshots.txt); a character no font has is drawn as
a box and named on stderr.
"""

import argparse
import functools
import subprocess
import sys
import unicodedata

import pyte
from fontTools.ttLib import TTFont
from PIL import Image, ImageColor, ImageDraw, ImageFont, features
from wcwidth import wcwidth

FONTS = ["DejaVu Sans Mono", "DejaVu Sans", "Noto Sans Mono CJK SC", "Noto Sans", "Noto Sans Arabic",
         "Noto Sans Hebrew", "Noto Sans Devanagari", "Noto Sans Symbols", "Noto Sans Symbols2", "Symbola",
         "Noto Color Emoji"]
EMOJI = "Noto Color Emoji"
EMOJI_STRIKE = 109  # Noto Color Emoji is a bitmap font of this one size
SIZE = 16
# A One-Dark-like theme: the 16 ANSI colours; the default foreground, background and cursor;
# the window frame.
ANSI = ["#3b4048", "#e06c75", "#98c379", "#e5c07b", "#61afef", "#c678dd", "#56b6c2", "#c8ccd4",
        "#5c6370", "#ff7b86", "#b5e890", "#ffd68a", "#82c4ff", "#dd8ff0", "#6fd3e0", "#f0f2f5"]
FG, BG, CURSOR = "#d4d7dd", "#1b1d23", "#e8eaee"
CHROME, BORDER, TITLE = "#25272e", "#3a3d47", "#9aa0ab"
NAMES = ["black", "red", "green", "brown", "blue", "magenta", "cyan", "white"]
# pyte names the 16 colours (yellow is "brown"); 256-colour and RGB ones come as hex.
COLOURS = {**{name: ANSI[i] for i, name in enumerate(NAMES)},
           **{"bright" + name: ANSI[i + 8] for i, name in enumerate(NAMES)}}


def installed_fonts():
    """{family: {"Regular"|"Bold": (file, index)}} from fontconfig."""
    listing = subprocess.run(["fc-list", "-f", "%{family[0]}|%{style[0]}|%{file}|%{index}\n"],
                             capture_output=True, text=True, check=True).stdout
    found = {}
    for line in listing.splitlines():
        family, style, path, index = line.split("|")
        style = {"Book": "Regular"}.get(style, style)
        if family in FONTS and style in ("Regular", "Bold"):
            found.setdefault(family, {})[style] = (path, int(index))
    return found


def cell_width(char):
    """Cells of one code point as tmux sees it (glibc's wcwidth): a spacing mark (Devanagari's
    ा, Mc) has a cell of its own, where the wcwidth package gives it none."""
    width = wcwidth(char)
    return 1 if width == 0 and unicodedata.category(char) == "Mc" else width


pyte.screens.wcwidth = cell_width  # pyte's Screen.draw measures with this name


def regional_indicator(text):
    return len(text) == 1 and 0x1F1E6 <= ord(text) <= 0x1F1FF


class Screen(pyte.Screen):
    """pyte's screen, but characters join the cell before them as tmux 3.3 joins them: a
    zero-width one (pyte keeps only marks with a combining class, and drops the rest of the
    text at others), the one after a ZWJ (👨‍👩‍👧), and the second of a flag's two letters."""

    def draw(self, data):
        for char in data:
            line, x = self.buffer[self.cursor.y], self.cursor.x - 1
            if x > 0 and line[x].data == "":  # the second half of a wide character
                x -= 1
            last = line[x].data if x >= 0 else ""
            if x < 0 or not (cell_width(char) == 0 or last.endswith("\u200d")
                             or (regional_indicator(char) and regional_indicator(last))):
                super().draw(char)
                continue
            line[x] = line[x]._replace(data=last + char)

    def select_graphic_rendition(self, *attrs, **options):
        """Dim (SGR 2, undone by 22 or 0) is kept in the blink field: pyte has no dim, and
        Roster never blinks."""
        mapped, i = [], 0
        while i < len(attrs):
            if attrs[i] in (38, 48):  # an extended colour's numbers are not attributes
                end = i + (3 if attrs[i + 1:i + 2] == (5,) else 5)
                mapped += attrs[i:end]
                i = end
                continue
            mapped += {2: [5], 22: [22, 25]}.get(attrs[i], [attrs[i]])
            i += 1
        super().select_graphic_rendition(*mapped, **options)


class Fonts:
    def __init__(self):
        self.faces = installed_fonts()
        if FONTS[0] not in self.faces:
            sys.exit("ansi_to_png: DejaVu Sans Mono is missing: apt-get install fonts-dejavu-core")
        self.missing = set()

    @functools.cache
    def charmap(self, family):
        path, index = self.faces[family]["Regular"]
        return set(TTFont(path, fontNumber=index, lazy=True).getBestCmap())

    @functools.cache
    def font(self, family, bold, size, shaped=False):
        """The font and whether bold must be faked (the family has no bold face). Only a cluster
        of several code points is shaped: a lone mark shaped would get a dotted circle."""
        face = self.faces[family].get("Bold" if bold else "Regular") or self.faces[family]["Regular"]
        fake = bold and "Bold" not in self.faces[family]
        layout = ImageFont.Layout.RAQM if shaped and features.check("raqm") else ImageFont.Layout.BASIC
        return ImageFont.truetype(face[0], size, index=face[1], layout_engine=layout), fake

    def family(self, text, emoji):
        """The first family that has every character of the cell, emoji first for an emoji cell."""
        wanted = [ord(c) for c in text if cell_width(c) != 0 or unicodedata.combining(c)]
        order = [EMOJI] + FONTS if emoji else FONTS
        for family in order:
            if family in self.faces and all(cp in self.charmap(family) for cp in wanted):
                return family
        self.missing.add(text)
        return None


QUADRANTS = [4, 8, 1, 13, 9, 7, 11, 2, 6, 14]  # U+2596..259F: upper left 1, upper right 2, lower 4, 8


def block(char, width, height):
    """A block element (U+2580..259F) as a mask that fills its cell exactly, so a bar of them
    has no seams (the font's glyphs are a fraction of a pixel narrower than the cell)."""
    cp = ord(char)
    if 0x2591 <= cp <= 0x2593:  # shades: an even tint, not the font's dot pattern
        return Image.new("L", (width, height), 64 * (cp - 0x2590))
    mask = Image.new("L", (width, height))
    draw = ImageDraw.Draw(mask)
    w, h = width, height
    if cp == 0x2580:
        boxes = [(0, 0, w, h / 2)]
    elif cp <= 0x2588:
        boxes = [(0, h - h * (cp - 0x2580) / 8, w, h)]
    elif cp <= 0x258F:
        boxes = [(0, 0, w * (0x2590 - cp) / 8, h)]
    elif cp == 0x2590:
        boxes = [(w / 2, 0, w, h)]
    elif cp == 0x2594:
        boxes = [(0, 0, w, h / 8)]
    elif cp == 0x2595:
        boxes = [(w - w / 8, 0, w, h)]
    else:
        bits = QUADRANTS[cp - 0x2596]
        boxes = [(x * w / 2, y * h / 2, (x + 1) * w / 2, (y + 1) * h / 2)
                 for bit, x, y in ((1, 0, 0), (2, 1, 0), (4, 0, 1), (8, 1, 1)) if bits & bit]
    for left, top, right, bottom in boxes:
        draw.rectangle((round(left), round(top), round(right) - 1, round(bottom) - 1), fill=255)
    return mask


def colour(name, default):
    if name == "default":
        return default
    return COLOURS.get(name) or "#" + name


class Painter:
    def __init__(self, fonts):
        self.fonts = fonts
        main, _ = fonts.font(FONTS[0], False, SIZE)
        self.ascent, descent = main.getmetrics()
        self.cw, self.ch = round(main.getlength("M")), self.ascent + descent

    @functools.cache
    def glyph(self, text, cells, bold):
        """An RGBA image of the cell's glyph (colour emoji) or an L mask, cells wide; None for blank."""
        if not text.strip():
            return None
        width, height = self.cw * cells, self.ch
        cp = ord(text[0])
        if 0x2580 <= cp <= 0x259F and len(text) == 1:
            return block(text, width, height)
        emoji = "\ufe0f" in text or (cells == 2 and (cp >= 0x1F000 or 0x2300 <= cp <= 0x2BFF))
        family = self.fonts.family(text, emoji)
        if family is None:
            mask = Image.new("L", (width, height))
            ImageDraw.Draw(mask).rectangle((1, 3, width - 2, self.ascent), outline=255)
            return mask
        if family == EMOJI:
            return self.emoji(text, width, height)
        size, x, y = SIZE, 0, self.ascent
        while True:  # a fallback font's glyph: shrunk to fit its cells, and centred
            font, fake_bold = self.fonts.font(family, bold, size, len(text) > 1)
            if family == FONTS[0]:
                break
            left, top, right, bottom = font.getbbox(text, anchor="ls")
            if (right - left <= width and bottom - top <= height) or size <= 6:
                x = min(max((width - font.getlength(text)) / 2, -left), width - right)
                y = min(max(self.ascent, -top), height - bottom)
                break
            size -= 1
        mask = Image.new("L", (width, height))
        draw = ImageDraw.Draw(mask)
        for dx in ((0, 1) if fake_bold else (0,)):
            draw.text((x + dx, y), text, font=font, fill=255, anchor="ls")
        return mask

    def emoji(self, text, width, height):
        font, _ = self.fonts.font(EMOJI, False, EMOJI_STRIKE, len(text) > 1)
        box = font.getbbox(text)
        image = Image.new("RGBA", (box[2], box[3]))
        ImageDraw.Draw(image).text((0, 0), text, font=font, embedded_color=True)
        image = image.crop(image.getbbox())
        scale = min(width, height, round(SIZE * 1.2)) / max(image.size)
        image = image.resize((round(image.width * scale), round(image.height * scale)), Image.LANCZOS)
        cell = Image.new("RGBA", (width, height))
        cell.paste(image, ((width - image.width) // 2, (height - image.height) // 2))
        return cell

    def screen(self, screen, cursor):
        image = Image.new("RGB", (screen.columns * self.cw, screen.lines * self.ch), BG)
        draw = ImageDraw.Draw(image)
        for row in range(screen.lines):
            line = screen.buffer[row]
            for col in range(screen.columns):
                char = line[col]
                if char.data == "":  # the second half of a wide character
                    continue
                cells = 2 if col + 1 < screen.columns and line[col + 1].data == "" else 1
                fg, bg = colour(char.fg, FG), colour(char.bg, BG)
                if char.reverse:
                    fg, bg = bg, fg
                if char.blink:  # dim: the colour halfway to the background
                    fg = tuple(round(f * 0.55 + b * 0.45)
                               for f, b in zip(ImageColor.getrgb(fg), ImageColor.getrgb(bg)))
                if cursor in ((row, col), (row, col + cells - 1)):
                    fg, bg = BG, CURSOR
                x, y = col * self.cw, row * self.ch
                box = (x, y, x + cells * self.cw - 1, y + self.ch - 1)
                if bg != BG:
                    draw.rectangle(box, fill=bg)
                glyph = self.glyph(char.data, cells, char.bold)
                if glyph is not None and glyph.mode == "RGBA":
                    image.paste(glyph, (x, y), glyph)
                elif glyph is not None:
                    image.paste(fg, box[:2] + (box[2] + 1, box[3] + 1), glyph)
                if char.underscore:
                    draw.line((x, y + self.ascent + 2, box[2], y + self.ascent + 2), fill=fg)
        return image

    def window(self, content, title):
        """The content in a window frame with a title bar."""
        pad, bar = 12, round(self.ch * 1.6)
        image = Image.new("RGB", (content.width + 2 * pad + 2, content.height + 2 * pad + bar + 2), BG)
        image.paste(content, (pad + 1, pad + bar + 1))
        draw = ImageDraw.Draw(image)
        draw.rectangle((0, 0, image.width - 1, bar), fill=CHROME)
        draw.line((0, bar, image.width - 1, bar), fill=BORDER)
        draw.rectangle((0, 0, image.width - 1, image.height - 1), outline=BORDER)
        radius = round(bar * 0.2)
        for i, light in enumerate(("#ff5f57", "#febc2e", "#28c840")):
            x, y = round(bar * 0.45) + i * 3 * radius + radius, bar // 2
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=light)
        font, _ = self.fonts.font("DejaVu Sans", False, round(SIZE * 0.85))
        draw.text((image.width / 2, bar / 2), title, font=font, fill=TITLE, anchor="mm")
        return image


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", help="the capture")
    parser.add_argument("output", help="the PNG to write")
    parser.add_argument("--cols", type=int, required=True)
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--title", help="draw a window frame with this title")
    parser.add_argument("--cursor", help="ROW,COL, as tmux's #{cursor_y},#{cursor_x}")
    args = parser.parse_args()
    with open(args.input, encoding="utf-8") as capture:
        lines = capture.read().split("\n")[:args.rows]
    screen = Screen(args.cols, args.rows)
    stream = pyte.Stream(screen)
    for row, line in enumerate(lines):
        stream.feed(f"\x1b[{row + 1};1H{line}")  # each line at its row; tmux carries attributes over
    cursor = tuple(map(int, args.cursor.split(","))) if args.cursor else None
    fonts = Fonts()
    painter = Painter(fonts)
    image = painter.screen(screen, cursor)
    if args.title is not None:
        image = painter.window(image, args.title)
    image.save(args.output)
    if fonts.missing:
        print(f"ansi_to_png: no font has {sorted(fonts.missing)}: see scripts/requirements-screenshots.txt",
              file=sys.stderr)


if __name__ == "__main__":
    main()
