#!/usr/bin/env python3
r"""Render a tmux pane capture (text with SGR colour escapes) to a PNG screenshot.

    tmux capture-pane -p -e -N -t roster > shot.ansi
    tmux display -p -t roster '#{cursor_y},#{cursor_x}'      # optional, for --cursor
    python3 scripts/ansi_to_png.py shot.ansi shot.png --cols 120 --rows 40 \
        [--font-size 16] [--title "Roster"] [--cursor ROW,COL] [--grid] [-v]

It draws what a terminal draws: a monospace cell grid (DejaVu Sans Mono), every
character in its own cell(s) with its colours and attributes (bold, dim,
italic, underline incl. double/curly/dotted/dashed and underline colour,
reverse, strike, overline, hidden; 16/256/truecolour; default fg/bg 39/49).
Cell widths are rebuilt the way tmux 3.3 lays out its grid: per code point
with Python's `wcwidth` (CJK and emoji = 2 cells, combining marks join the
previous cell, Indic spacing marks get their own cell, ZWJ sequences and
regional-indicator flags join into one cell, VS16 does *not* widen).  Use
--grapheme-widths for terminals that measure whole graphemes instead.
Pass `-N` to capture-pane: without it tmux trims trailing spaces, so a
coloured bar that runs to the right edge loses its tail.
--cursor is 0-based ROW,COL, exactly tmux's #{cursor_y},#{cursor_x}.

Fonts.  Found with fontconfig (`fc-list`, which also gives each font's
character set); when fontconfig is absent, the well-known Debian paths under
/usr/share/fonts are tried instead (coverage then probed against .notdef).
Per character, the first font of this chain that has the glyph is used:
  DejaVu Sans Mono (+Bold/Oblique)  REQUIRED: Latin, Greek, Cyrillic, Arabic  fonts-dejavu-core
  DejaVu Sans       Hebrew, braille, arrows, symbols                    fonts-dejavu-core
  Noto Sans Mono CJK SC/JP/KR/TC   Chinese, Japanese, Korean            fonts-noto-cjk
  Noto Sans Devanagari/Hebrew/Arabic, Noto Sans, Noto Sans Symbols(2)
                    Indic scripts, control pictures (ESC/NUL symbols)    fonts-noto-core
  Symbola           remaining symbols                                    fonts-symbola
  Noto Color Emoji  emoji (first choice for wide emoji cells)           fonts-noto-color-emoji
then any other installed font that has the glyph.  Box drawing (U+2500..257F)
and block elements (U+2580..259F) are drawn procedurally, so lines join
seamlessly between cells as in real terminals.  Fallback glyphs are scaled
down / re-centred so they never leave their cell(s); colour emoji are scaled
down from the font's bitmap strike.  Bold/italic are synthesised for fonts
without such faces.  If DejaVu Sans Mono is missing the script exits with
status 2 naming the package; a character that no installed font has is drawn
as a hollow box and reported on stderr with the Debian package that would
supply it (--strict turns that into exit status 3).

Limitations (deliberate, they are what a terminal grid shows): Arabic and
Hebrew are drawn one code point per cell, unshaped and left-to-right in the
order stored in the grid; Indic spacing vowel signs sit in their own cell;
an emoji that tmux gives one cell (e.g. U+2764 U+FE0F) is shrunk into it.

Requirements: Python 3.8+, `pip install -r scripts/requirements-screenshots.txt`
(pillow>=10.1, wcwidth) and, with apt: fontconfig fonts-dejavu-core
fonts-noto-cjk fonts-noto-core fonts-symbola fonts-noto-color-emoji.
"""

from __future__ import annotations

import argparse
import bisect
import math
import os
import re
import shutil
import subprocess
import sys
import unicodedata

try:
    from PIL import Image, ImageDraw, ImageFont, features
except ImportError:  # pragma: no cover
    sys.exit("ansi_to_png: Pillow is missing: pip install -r scripts/requirements-screenshots.txt")
try:
    import wcwidth as _wcwidth
except ImportError:  # pragma: no cover
    sys.exit("ansi_to_png: wcwidth is missing: pip install -r scripts/requirements-screenshots.txt")


# --------------------------------------------------------------------------
# Palettes
# --------------------------------------------------------------------------

def _hex(s):
    s = s.lstrip("#")
    return (int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16))


PALETTES = {
    # A One-Dark-like modern dark theme, with bright colours that really are
    # brighter than the normal ones.
    "dark": {
        "bg": "#1b1d23", "fg": "#d4d7dd", "cursor": "#e8eaee",
        "chrome": "#25272e", "border": "#3a3d47", "title": "#9aa0ab",
        "ansi": ["#3b4048", "#e06c75", "#98c379", "#e5c07b",
                 "#61afef", "#c678dd", "#56b6c2", "#c8ccd4",
                 "#5c6370", "#ff7b86", "#b5e890", "#ffd68a",
                 "#82c4ff", "#dd8ff0", "#6fd3e0", "#f0f2f5"],
    },
    # Stock xterm colours on black, for checking exact colours.
    "xterm": {
        "bg": "#000000", "fg": "#e5e5e5", "cursor": "#ffffff",
        "chrome": "#1c1c1c", "border": "#3a3a3a", "title": "#a0a0a0",
        "ansi": ["#000000", "#cd0000", "#00cd00", "#cdcd00",
                 "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
                 "#7f7f7f", "#ff0000", "#00ff00", "#ffff00",
                 "#5c5cff", "#ff00ff", "#00ffff", "#ffffff"],
    },
}


def xterm256(n, ansi16):
    if n < 16:
        return ansi16[n]
    if n < 232:
        n -= 16
        levels = (0, 95, 135, 175, 215, 255)
        return (levels[n // 36], levels[(n // 6) % 6], levels[n % 6])
    g = 8 + 10 * (n - 232)
    return (g, g, g)


# --------------------------------------------------------------------------
# Parsing: SGR state machine + cell grid
# --------------------------------------------------------------------------

BOLD, DIM, ITALIC, BLINK, REVERSE, HIDDEN, STRIKE, OVERLINE = (1 << i for i in range(8))


class Attr:
    """Immutable-ish SGR state. Colours: None (default), int 0..255, or (r, g, b)."""
    __slots__ = ("fg", "bg", "flags", "ul", "ulc")

    def __init__(self, fg=None, bg=None, flags=0, ul=0, ulc=None):
        self.fg, self.bg, self.flags, self.ul, self.ulc = fg, bg, flags, ul, ulc

    def copy(self):
        return Attr(self.fg, self.bg, self.flags, self.ul, self.ulc)


DEFAULT_ATTR = Attr()


def _ext_colour(parts, i, sub):
    """Parse 38/48/58 extended colour. Returns (colour or None, new index)."""
    if sub is not None:                      # colon form: 38:5:n / 38:2::r:g:b / 38:2:r:g:b
        try:
            if sub[0] == "5":
                return int(sub[1]) & 255, i
            if sub[0] == "2":
                rgb = [x for x in sub[1:]]
                if len(rgb) >= 4:            # colour-space id present
                    rgb = rgb[1:4]
                r, g, b = (int(x or 0) & 255 for x in rgb[:3])
                return (r, g, b), i
        except (IndexError, ValueError):
            return None, i
        return None, i
    try:
        kind = parts[i + 1]
        if kind == "5":
            return int(parts[i + 2]) & 255, i + 2
        if kind == "2":
            r, g, b = (int(parts[i + k] or 0) & 255 for k in (2, 3, 4))
            return (r, g, b), i + 4
    except (IndexError, ValueError):
        pass
    return None, len(parts)


def apply_sgr(attr, params):
    a = attr.copy()
    parts = params.split(";") if params else [""]
    i = 0
    while i < len(parts):
        p = parts[i]
        sub = None
        if ":" in p:
            head, *sub = p.split(":")
        else:
            head = p
        try:
            n = int(head) if head else 0
        except ValueError:
            i += 1
            continue
        if n == 0:
            a = Attr()
        elif n == 1:
            a.flags |= BOLD
        elif n == 2:
            a.flags |= DIM
        elif n == 3:
            a.flags |= ITALIC
        elif n == 4:
            style = 1
            if sub:
                try:
                    style = int(sub[0] or 0)
                except ValueError:
                    style = 1
            a.ul = style
        elif n == 5 and sub == ["3"]:
            a.flags |= OVERLINE       # tmux 3.3 writes overline (53) as "5:3" in captures
        elif n in (5, 6):
            a.flags |= BLINK
        elif n == 7:
            a.flags |= REVERSE
        elif n == 8:
            a.flags |= HIDDEN
        elif n == 9:
            a.flags |= STRIKE
        elif n == 21:
            a.ul = 2
        elif n == 22:
            a.flags &= ~(BOLD | DIM)
        elif n == 23:
            a.flags &= ~ITALIC
        elif n == 24:
            a.ul = 0
        elif n == 25:
            a.flags &= ~BLINK
        elif n == 27:
            a.flags &= ~REVERSE
        elif n == 28:
            a.flags &= ~HIDDEN
        elif n == 29:
            a.flags &= ~STRIKE
        elif 30 <= n <= 37:
            a.fg = n - 30
        elif n == 38:
            c, i = _ext_colour(parts, i, sub)
            if c is not None:
                a.fg = c
        elif n == 39:
            a.fg = None
        elif 40 <= n <= 47:
            a.bg = n - 40
        elif n == 48:
            c, i = _ext_colour(parts, i, sub)
            if c is not None:
                a.bg = c
        elif n == 49:
            a.bg = None
        elif n == 53:
            a.flags |= OVERLINE
        elif n == 55:
            a.flags &= ~OVERLINE
        elif n == 58:
            c, i = _ext_colour(parts, i, sub)
            if c is not None:
                a.ulc = c
        elif n == 59:
            a.ulc = None
        elif 90 <= n <= 97:
            a.fg = n - 90 + 8
        elif 100 <= n <= 107:
            a.bg = n - 100 + 8
        i += 1
    return a


ESC_RE = re.compile(
    r"\x1b(?:\[([0-?]*)[ -/]*([@-~])"        # CSI ... final
    r"|\][^\x07\x1b]*(?:\x07|\x1b\\|$)"       # OSC ... BEL/ST
    r"|[PX^_][^\x1b]*(?:\x1b\\|$)"            # DCS/SOS/PM/APC ... ST
    r"|[ -/]*[0-~]"                           # other two/three byte escapes
    r"|$)", re.S)

ZWJ = "\u200d"
IGNORABLE = {0x200D, 0x200C, 0xFE0E, 0xFE0F}


def _is_ri(ch):
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


class Cell:
    __slots__ = ("text", "width", "attr")

    def __init__(self, text, width, attr):
        self.text, self.width, self.attr = text, width, attr


def char_width(ch):
    """Cell width of one code point as tmux 3.3 / glibc wcwidth() sees it."""
    w = _wcwidth.wcwidth(ch)
    if w == 0 and unicodedata.category(ch) == "Mc":
        return 1          # glibc gives spacing combining marks their own cell
    return w


def parse(text, cols=None, rows=None, grapheme_widths=False, tabstop=8):
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    grid = []
    attr = Attr()
    for line in lines:
        row = []          # list of Cell; a wide cell is followed by a Cell with width 0
        join_next = False
        pos = 0
        chunks = []
        for m in ESC_RE.finditer(line):
            if m.start() > pos:
                chunks.append(("t", line[pos:m.start()]))
            if m.group(2) == "m":
                chunks.append(("m", m.group(1)))
            pos = m.end()
        if pos < len(line):
            chunks.append(("t", line[pos:]))
        for kind, val in chunks:
            if kind == "m":
                attr = apply_sgr(attr, val)
                continue
            if grapheme_widths:
                units = list(_wcwidth.iter_graphemes(val))
            else:
                units = list(val)
            for u in units:
                if u == "\t":
                    n = tabstop - len(row) % tabstop
                    row.extend(Cell(" ", 1, attr) for _ in range(n))
                    continue
                if grapheme_widths:
                    w = _wcwidth.wcswidth(u)
                    if w < 0:
                        continue
                    if w == 0:
                        last = _last_cell(row)
                        if last is not None:
                            last.text += u
                        continue
                    row.append(Cell(u, w, attr))
                    if w == 2:
                        row.append(Cell("", 0, attr))
                    continue
                ch = u
                last = _last_cell(row)
                if last is not None and (join_next or
                                         (_is_ri(ch) and len(last.text) == 1 and _is_ri(last.text))):
                    last.text += ch
                    join_next = False
                    continue
                if ch == ZWJ:
                    if last is not None:
                        last.text += ch
                        join_next = True
                    continue
                w = char_width(ch)
                if w < 0:
                    continue          # stray control character
                if w == 0:
                    if last is not None:
                        last.text += ch
                    continue
                row.append(Cell(ch, w, attr))
                if w == 2:
                    row.append(Cell("", 0, attr))
        grid.append(row)
    if rows is not None:
        grid = grid[:rows] + [[] for _ in range(max(0, rows - len(grid)))]
    width = max((len(r) for r in grid), default=0)
    if cols is None:
        cols = max(width, 1)
    out = []
    for r in grid:
        r = r[:cols]
        if r and r[-1].width == 2:            # wide char cut at the right edge
            r[-1].width = 1
        r += [Cell(" ", 1, DEFAULT_ATTR) for _ in range(cols - len(r))]
        out.append(r)
    return out, cols, len(out)


def _last_cell(row):
    for c in reversed(row):
        if c.width:
            return c
    return None


# --------------------------------------------------------------------------
# Fonts
# --------------------------------------------------------------------------

MAIN_FAMILY = "DejaVu Sans Mono"
EMOJI_FAMILY = "Noto Color Emoji"
CHAIN = [
    "DejaVu Sans Mono",
    "DejaVu Sans",
    "Noto Sans Mono",
    "Noto Sans Mono CJK SC", "Noto Sans Mono CJK JP", "Noto Sans Mono CJK KR", "Noto Sans Mono CJK TC",
    "Noto Sans CJK SC", "Noto Sans CJK JP", "WenQuanYi Zen Hei Mono", "WenQuanYi Zen Hei",
    "Noto Sans Devanagari", "Noto Sans Hebrew", "Noto Sans Arabic", "Noto Sans",
    "Noto Sans Symbols", "Noto Sans Symbols2", "Noto Sans Math",
    "Symbola", "DejaVu Serif", "Noto Color Emoji",
]
# Known Debian locations, used only when fontconfig is not available.
KNOWN = {
    "DejaVu Sans Mono": [("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", 0, 80, 0),
                         ("/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf", 0, 200, 0),
                         ("/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Oblique.ttf", 0, 80, 110),
                         ("/usr/share/fonts/truetype/dejavu/DejaVuSansMono-BoldOblique.ttf", 0, 200, 110)],
    "DejaVu Sans": [("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0, 80, 0),
                    ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", 0, 200, 0)],
    "Noto Sans Mono CJK SC": [("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 7, 80, 0),
                              ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", 7, 200, 0)],
    "WenQuanYi Zen Hei Mono": [("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 1, 80, 0)],
    "Noto Sans Devanagari": [("/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf", 0, 80, 0),
                             ("/usr/share/fonts/truetype/noto/NotoSansDevanagari-Bold.ttf", 0, 200, 0)],
    "Noto Sans Hebrew": [("/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf", 0, 80, 0),
                         ("/usr/share/fonts/truetype/noto/NotoSansHebrew-Bold.ttf", 0, 200, 0)],
    "Noto Sans Arabic": [("/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf", 0, 80, 0)],
    "Noto Sans": [("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", 0, 80, 0),
                  ("/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf", 0, 200, 0)],
    "Noto Sans Symbols": [("/usr/share/fonts/truetype/noto/NotoSansSymbols-Regular.ttf", 0, 80, 0)],
    "Noto Sans Symbols2": [("/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf", 0, 80, 0)],
    "Symbola": [("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf", 0, 80, 0)],
    "Noto Color Emoji": [("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", 0, 80, 0)],
}


def suggest_package(cp):
    if (0x2E80 <= cp <= 0x9FFF or 0xAC00 <= cp <= 0xD7AF or 0xF900 <= cp <= 0xFAFF
            or 0xFF00 <= cp <= 0xFFEF or 0x20000 <= cp <= 0x3FFFF or 0x1100 <= cp <= 0x11FF):
        return "fonts-noto-cjk"
    if 0x1F000 <= cp <= 0x1FAFF:
        return "fonts-noto-color-emoji (or fonts-symbola)"
    if 0x2000 <= cp <= 0x2BFF:
        return "fonts-symbola"
    if 0xE000 <= cp <= 0xF8FF:
        return "a Nerd/Powerline font (private-use code point)"
    return "fonts-noto-core"


class FontEntry:
    __slots__ = ("file", "index", "family", "weight", "slant", "width", "ranges", "_los", "_probe")

    def __init__(self, file, index, family, weight, slant, width, ranges):
        self.file, self.index, self.family = file, index, family
        self.weight, self.slant, self.width = weight, slant, width
        self.ranges = ranges            # sorted [(lo, hi)] or None (unknown -> probe)
        self._los = [r[0] for r in ranges] if ranges else None
        self._probe = None

    def has(self, cp):
        if self.ranges is None:
            if self._probe is None:
                self._probe = _NotdefProbe(self)
            return self._probe.has(cp)
        i = bisect.bisect_right(self._los, cp) - 1
        return i >= 0 and self.ranges[i][0] <= cp <= self.ranges[i][1]

    def __repr__(self):
        return f"{self.family} ({os.path.basename(self.file)}#{self.index} w{self.weight} s{self.slant})"


class _NotdefProbe:
    """Coverage test without fontconfig: compare a glyph with the .notdef glyph."""

    def __init__(self, entry):
        size = 109 if "Emoji" in entry.family else 32
        self.font = ImageFont.truetype(entry.file, size, index=entry.index,
                                       layout_engine=ImageFont.Layout.BASIC)
        self.notdef = self._sig(chr(0x10FFFD))

    def _sig(self, ch):
        try:
            m = self.font.getmask(ch)
            return (m.size, bytes(m))
        except Exception:
            return None

    def has(self, cp):
        s = self._sig(chr(cp))
        return s is not None and s != self.notdef


def _parse_charset(s):
    ranges = []
    for tok in s.split():
        if "-" in tok:
            lo, hi = tok.split("-")
            ranges.append((int(lo, 16), int(hi, 16)))
        else:
            v = int(tok, 16)
            ranges.append((v, v))
    ranges.sort()
    return ranges


class FontDB:
    def __init__(self, main_font=None, verbose=False):
        self.verbose = verbose
        self.entries = []
        fc = shutil.which("fc-list")
        if fc:
            fmt = "%{file}\\t%{index}\\t%{family[0]}\\t%{weight}\\t%{slant}\\t%{width}\\t%{charset}\\n"
            try:
                out = subprocess.run([fc, "--format", fmt], capture_output=True, text=True,
                                     check=True, timeout=60).stdout
            except (subprocess.SubprocessError, OSError):
                out = ""
            for line in out.splitlines():
                f = line.split("\t")
                if len(f) < 7 or not f[0].lower().endswith((".ttf", ".otf", ".ttc", ".otc")):
                    continue
                try:
                    self.entries.append(FontEntry(f[0], int(f[1] or 0), f[2], int(f[3] or 80),
                                                  int(f[4] or 0), int(f[5] or 100),
                                                  _parse_charset(f[6])))
                except ValueError:
                    continue
        if not self.entries:
            if verbose:
                print("ansi_to_png: fontconfig unavailable, using known font paths", file=sys.stderr)
            for fam, files in KNOWN.items():
                for path, idx, wt, sl in files:
                    if os.path.exists(path):
                        self.entries.append(FontEntry(path, idx, fam, wt, sl, 100, None))
        self.by_family = {}
        for e in self.entries:
            self.by_family.setdefault(e.family, []).append(e)
        if main_font:
            e = FontEntry(main_font, 0, "user main font", 80, 0, 100, None)
            self.by_family["user main font"] = [e]
            self.main_family = "user main font"
        else:
            self.main_family = MAIN_FAMILY
        if self.main_family not in self.by_family:
            sys.stderr.write(
                "ansi_to_png: required font 'DejaVu Sans Mono' not found.\n"
                "  Debian/Ubuntu: apt-get install fonts-dejavu-core   (or pass --font PATH.ttf)\n")
            sys.exit(2)
        chain = [self.main_family] + [f for f in CHAIN if f != MAIN_FAMILY]
        self.chain = [f for f in chain if f in self.by_family]
        others = sorted(f for f in self.by_family if f not in self.chain)
        self.others = others
        self._pick_cache = {}

    def face(self, family, bold, italic):
        """Best face of family for the style; returns (entry, fake_bold, fake_italic)."""
        want_w = 200 if bold else 80
        best, score = None, None
        for e in self.by_family[family]:
            s = abs(e.weight - want_w) + (0 if (e.slant > 0) == italic else 1000) + abs(e.width - 100) * 3
            if score is None or s < score:
                best, score = e, s
        fake_bold = bold and best.weight < 150
        fake_italic = italic and best.slant == 0
        return best, fake_bold, fake_italic

    def pick_family(self, text, prefer_emoji):
        key = (text, prefer_emoji)
        if key in self._pick_cache:
            return self._pick_cache[key]
        cps = [ord(c) for c in text if ord(c) not in IGNORABLE] or [ord(text[0])]
        fams = list(self.chain)
        if prefer_emoji and EMOJI_FAMILY in fams:
            fams.remove(EMOJI_FAMILY)
            fams.insert(0, EMOJI_FAMILY)
        result = None
        for group in (fams, self.others):
            for fam in group:
                e = self.face(fam, False, False)[0]
                if all(e.has(cp) for cp in cps):
                    result = fam
                    break
            if result:
                break
        if result is None and len(cps) > 1:          # no font has the whole cluster: go by its base
            for group in (fams, self.others):
                for fam in group:
                    if self.face(fam, False, False)[0].has(cps[0]):
                        result = fam
                        break
                if result:
                    break
        self._pick_cache[key] = result
        return result


# --------------------------------------------------------------------------
# Procedural box drawing / block elements
# --------------------------------------------------------------------------

_WEIGHTS = {"LIGHT": 1, "SINGLE": 1, "HEAVY": 2, "DOUBLE": 3}
_DIRS = {"LEFT": "l", "RIGHT": "r", "UP": "u", "DOWN": "d", "HORIZONTAL": "lr", "VERTICAL": "ud"}


def _box_spec(ch):
    """Decode a U+2500..257F character from its Unicode name."""
    try:
        name = unicodedata.name(ch)
    except ValueError:
        return None
    if not name.startswith("BOX DRAWINGS "):
        return None
    words = name[len("BOX DRAWINGS "):].split()
    weight = 2 if "HEAVY" in words else 1
    if "DASH" in words:
        n = {"DOUBLE": 2, "TRIPLE": 3, "QUADRUPLE": 4}[words[1]]
        return ("dash", weight, n, "h" if "HORIZONTAL" in words else "v")
    if "ARC" in words:
        return ("arc", "".join(_DIRS[w] for w in words if w in ("UP", "DOWN", "LEFT", "RIGHT")))
    if "DIAGONAL" in words:
        if "CROSS" in words:
            return ("diag", "x")
        return ("diag", "/" if words[2] == "UPPER" and words[3] == "RIGHT" else "\\")
    arms = {"l": 0, "r": 0, "u": 0, "d": 0}
    wt = None
    for seg in " ".join(words).split(" AND "):
        sw = [w for w in seg.split() if w in _WEIGHTS]
        if sw:
            wt = _WEIGHTS[sw[0]]
        for w in seg.split():
            for d in _DIRS.get(w, ""):
                arms[d] = wt or 1
    return ("lines", arms)


class BoxDrawer:
    def __init__(self, cw, ch, px):
        self.cw, self.ch = cw, ch
        self.t1 = max(1, round(px / 16))          # light line thickness
        self.t2 = max(self.t1 + 1, round(px / 8))   # heavy
        self.gap = max(1, self.t1)                # gap between double lines

    def _thick(self, w):
        return self.t2 if w == 2 else self.t1

    def supports(self, text):
        if len(text) != 1:
            return False
        cp = ord(text)
        return 0x2500 <= cp <= 0x259F

    def render(self, text, w):
        cp = ord(text)
        W, H = self.cw * w, self.ch
        if cp >= 0x2580:
            return self._block(cp, W, H)
        spec = _box_spec(text)
        if spec is None:
            return None
        if spec[0] == "lines":
            return self._lines(spec[1], W, H)
        if spec[0] == "dash":
            return self._dash(spec[1], spec[2], spec[3], W, H)
        return self._smooth(spec, W, H)

    def _centre(self, W, H, t):
        return (W - t) // 2, (H - t) // 2

    def _lines(self, arms, W, H):
        m = Image.new("L", (W, H), 0)
        d = ImageDraw.Draw(m)
        t1 = self.t1
        off = self.gap + t1               # distance between the two strokes of a double line

        def rect(x0, y0, x1, y1):         # [x0, x1) x [y0, y1), clipped
            x0, x1 = max(0, x0), min(W, x1)
            y0, y1 = max(0, y0), min(H, y1)
            if x1 > x0 and y1 > y0:
                d.rectangle((x0, y0, x1 - 1, y1 - 1), fill=255)

        # positions of the two strokes of a double line
        dx, dy = (W - (off + t1)) // 2, (H - (off + t1)) // 2
        vx = (dx, dx + off)               # x of the two vertical strokes (left, right)
        hy = (dy, dy + off)               # y of the two horizontal strokes (upper, lower)

        def span(size, weights, own):     # pixel span [lo, hi) covered by the crossing strokes
            lo, hi = None, None
            for a in weights:
                if not a:
                    continue
                if a == 3:
                    a0 = (size - (off + t1)) // 2
                    a1 = a0 + off + t1
                else:
                    t = self._thick(a)
                    a0, a1 = (size - t) // 2, (size - t) // 2 + t
                lo = a0 if lo is None else min(lo, a0)
                hi = a1 if hi is None else max(hi, a1)
            if lo is None:                # free end (╴ ╶): stop at the centre
                lo, hi = (size - own) // 2, (size - own) // 2 + own
            return lo, hi
        arm = arms
        # ---- horizontal arms
        for side in "lr":
            a = arm[side]
            if not a:
                continue
            lft = side == "l"
            if a != 3:
                t = self._thick(a)
                y0 = (H - t) // 2
                if (arm["u"] == 3 or arm["d"] == 3) and not (arm["l"] and arm["r"]):
                    if arm["u"] == 3 and arm["d"] == 3:     # ╟ ╢: stop at the near stroke
                        lim = vx[0] + t1 if lft else vx[1]
                    else:                                   # ╓ ╖ ╙ ╜: reach the far stroke
                        lim = vx[1] + t1 if lft else vx[0]
                else:
                    lo, hi = span(W, (arm["u"], arm["d"]), t)
                    lim = hi if lft else lo
                rect(0, y0, lim, y0 + t) if lft else rect(lim, y0, W, y0 + t)
                continue
            for k, y in enumerate(hy):                      # double: upper and lower stroke
                near, far = (arm["u"], arm["d"]) if k == 0 else (arm["d"], arm["u"])
                if near == 3:                               # inner corner
                    lim = vx[0] + t1 if lft else vx[1]
                elif far == 3:                              # outer corner
                    lim = vx[1] + t1 if lft else vx[0]
                elif near or far:                           # meets a single vertical
                    t = self._thick(near or far)
                    lim = (W - t) // 2 + t if lft else (W - t) // 2
                else:
                    lim = W // 2 + 1 if lft else W // 2 - 1
                rect(0, y, lim, y + t1) if lft else rect(lim, y, W, y + t1)
        # ---- vertical arms
        for side in "ud":
            a = arm[side]
            if not a:
                continue
            top = side == "u"
            if a != 3:
                t = self._thick(a)
                x0 = (W - t) // 2
                if (arm["l"] == 3 or arm["r"] == 3) and not (arm["u"] and arm["d"]):
                    if arm["l"] == 3 and arm["r"] == 3:     # ╤ ╧: stop at the near stroke
                        lim = hy[0] + t1 if top else hy[1]
                    else:                                   # ╒ ╕ ╘ ╛: reach the far stroke
                        lim = hy[1] + t1 if top else hy[0]
                else:
                    lo, hi = span(H, (arm["l"], arm["r"]), t)
                    lim = hi if top else lo
                rect(x0, 0, x0 + t, lim) if top else rect(x0, lim, x0 + t, H)
                continue
            for k, x in enumerate(vx):                      # double: left and right stroke
                near, far = (arm["l"], arm["r"]) if k == 0 else (arm["r"], arm["l"])
                if near == 3:
                    lim = hy[0] + t1 if top else hy[1]
                elif far == 3:
                    lim = hy[1] + t1 if top else hy[0]
                elif near or far:
                    t = self._thick(near or far)
                    lim = (H - t) // 2 + t if top else (H - t) // 2
                else:
                    lim = H // 2 + 1 if top else H // 2 - 1
                rect(x, 0, x + t1, lim) if top else rect(x, lim, x + t1, H)
        return m

    def _dash(self, weight, n, orient, W, H):
        m = Image.new("L", (W, H), 0)
        d = ImageDraw.Draw(m)
        t = self._thick(weight)
        length = W if orient == "h" else H
        seg = length / n
        for i in range(n):
            a = round(i * seg + seg * 0.2)
            b = round((i + 1) * seg - seg * 0.2)
            if b <= a:
                b = a + 1
            if orient == "h":
                y0 = (H - t) // 2
                d.rectangle((a, y0, b - 1, y0 + t - 1), fill=255)
            else:
                x0 = (W - t) // 2
                d.rectangle((x0, a, x0 + t - 1, b - 1), fill=255)
        return m

    def _smooth(self, spec, W, H):
        S = 4
        m = Image.new("L", (W * S, H * S), 0)
        d = ImageDraw.Draw(m)
        t = self.t1
        x0, y0 = self._centre(W, H, t)
        xc, yc = (x0 + t / 2) * S, (y0 + t / 2) * S
        tw = t * S
        if spec[0] == "arc":
            dirs = spec[1]
            r = min(xc, W * S - xc, yc, H * S - yc)
            sx = 1 if "r" in dirs else -1
            sy = 1 if "d" in dirs else -1
            ax, ay = xc + sx * r, yc + sy * r        # arc centre
            start = {(1, 1): 180, (-1, 1): 270, (-1, -1): 0, (1, -1): 90}[(sx, sy)]
            rr = r
            d.arc((ax - rr - tw / 2, ay - rr - tw / 2, ax + rr + tw / 2, ay + rr + tw / 2),
                  start, start + 90, fill=255, width=tw)
            def rect(a, b, c, e):          # [a, c) x [b, e), skipped when empty
                a, b, c, e = round(a), round(b), round(c), round(e)
                if c > a and e > b:
                    d.rectangle((a, b, c - 1, e - 1), fill=255)

            # straight runs from the arc ends to the cell edges
            if sx > 0:
                rect(ax, y0 * S, W * S, y0 * S + tw)
            else:
                rect(0, y0 * S, ax + 1, y0 * S + tw)
            if sy > 0:
                rect(x0 * S, ay, x0 * S + tw, H * S)
            else:
                rect(x0 * S, 0, x0 * S + tw, ay + 1)
        else:
            kind = spec[1]
            if kind in ("/", "x"):
                d.line((W * S, 0, 0, H * S), fill=255, width=tw)
            if kind in ("\\", "x"):
                d.line((0, 0, W * S, H * S), fill=255, width=tw)
        return m.reduce(S)

    def _block(self, cp, W, H):
        m = Image.new("L", (W, H), 0)
        d = ImageDraw.Draw(m)

        def fill(x0, y0, x1, y1, v=255):           # fractions of the cell
            a, b = round(x0 * W), round(y0 * H)
            c, e = round(x1 * W), round(y1 * H)
            if c > a and e > b:
                d.rectangle((a, b, c - 1, e - 1), fill=v)

        if cp == 0x2580:
            fill(0, 0, 1, .5)
        elif 0x2581 <= cp <= 0x2588:
            fill(0, 1 - (cp - 0x2580) / 8, 1, 1)
        elif 0x2589 <= cp <= 0x258F:
            fill(0, 0, (0x2590 - cp) / 8, 1)
        elif cp == 0x2590:
            fill(.5, 0, 1, 1)
        elif cp in (0x2591, 0x2592, 0x2593):
            fill(0, 0, 1, 1, {0x2591: 64, 0x2592: 128, 0x2593: 192}[cp])
        elif cp == 0x2594:
            fill(0, 0, 1, 1 / 8)
        elif cp == 0x2595:
            fill(7 / 8, 0, 1, 1)
        else:
            quads = {0x2596: "3", 0x2597: "4", 0x2598: "1", 0x2599: "134", 0x259A: "14",
                     0x259B: "123", 0x259C: "124", 0x259D: "2", 0x259E: "23", 0x259F: "234"}[cp]
            for q in quads:
                x = 0 if q in "13" else .5
                y = 0 if q in "12" else .5
                fill(x, y, x + .5, y + .5)
        return m


# --------------------------------------------------------------------------
# Renderer
# --------------------------------------------------------------------------

def _is_emoji_cell(text, width):
    if "\ufe0f" in text:
        return True
    if "\ufe0e" in text:
        return False
    cp = ord(text[0])
    if width == 2 and (cp >= 0x1F000 or 0x2300 <= cp <= 0x2BFF or 0x3030 == cp or 0x303D == cp
                       or 0x3297 <= cp <= 0x3299):
        return True
    return False


class Renderer:
    def __init__(self, fonts: FontDB, px, line_height, palette, bold_bright=False):
        self.fonts = fonts
        self.px = px
        self.pal = {k: ([_hex(c) for c in v] if k == "ansi" else _hex(v)) for k, v in palette.items()}
        self.bold_bright = bold_bright
        self._ft = {}
        self._glyphs = {}
        self.missing = {}
        self.used = {}
        self.raqm = features.check("raqm")
        main, _, _ = fonts.face(fonts.main_family, False, False)
        f = self.font(main, px)
        asc, desc = f.getmetrics()
        self.cw = max(1, math.ceil(f.getlength("M") - 0.05))
        natural = asc + desc
        self.ch = max(natural, round(natural * line_height))
        self.baseline = (self.ch - natural) // 2 + asc
        self.ul_pos = self.baseline + max(1, round(px * 0.12))
        self.ul_th = max(1, round(px / 14))
        self.box = BoxDrawer(self.cw, self.ch, px)

    def font(self, entry, size):
        key = (entry.file, entry.index, size)
        f = self._ft.get(key)
        if f is None:
            f = ImageFont.truetype(entry.file, size, index=entry.index,
                                   layout_engine=ImageFont.Layout.BASIC)
            self._ft[key] = f
        return f

    def font_raqm(self, entry, size):
        key = (entry.file, entry.index, size, "raqm")
        f = self._ft.get(key)
        if f is None:
            f = ImageFont.truetype(entry.file, size, index=entry.index,
                                   layout_engine=ImageFont.Layout.RAQM)
            self._ft[key] = f
        return f

    # -- colours -------------------------------------------------------------
    def colour(self, c, default, bold=False):
        if c is None:
            return default
        if isinstance(c, int):
            if bold and self.bold_bright and c < 8:
                c += 8
            return xterm256(c, self.pal["ansi"])
        return c

    def cell_colours(self, attr, cursor=False):
        fl = attr.flags
        fg = self.colour(attr.fg, self.pal["fg"], bool(fl & BOLD))
        bg = self.colour(attr.bg, self.pal["bg"])
        if fl & REVERSE:
            fg, bg = bg, fg
        if cursor:
            fg, bg = bg, self.pal["cursor"] if (attr.fg is None and not fl & REVERSE) else fg
        if fl & DIM:
            fg = tuple(round(f * 0.55 + b * 0.45) for f, b in zip(fg, bg))
        return fg, bg

    # -- glyphs --------------------------------------------------------------
    def glyph(self, text, width, bold, italic):
        key = (text, width, bold, italic)
        g = self._glyphs.get(key)
        if g is None and key not in self._glyphs:
            g = self._make_glyph(text, width, bold, italic)
            self._glyphs[key] = g
        return g

    def _make_glyph(self, text, width, bold, italic):
        if not text or text.isspace():
            return None
        if self.box.supports(text):
            m = self.box.render(text, width)
            if m is not None:
                return ("mask", m)
        emoji = _is_emoji_cell(text, width)
        fam = self.fonts.pick_family(text, emoji)
        if fam is None:
            for c in text:
                if ord(c) not in IGNORABLE:
                    self.missing[c] = suggest_package(ord(c))
            return ("mask", self._tofu(width))
        self.used.setdefault(fam, set()).add(text)
        entry, fake_bold, fake_italic = self.fonts.face(fam, bold, italic)
        if (bold or italic) and not all(entry.has(ord(c)) for c in text if ord(c) not in IGNORABLE):
            # the styled face lacks the glyph (e.g. Arabic in DejaVu Sans Mono Oblique):
            # use the regular face and synthesise the style
            entry, _, _ = self.fonts.face(fam, False, False)
            fake_bold, fake_italic = bold, italic
        if fam == EMOJI_FAMILY:
            return self._emoji(entry, text, width)
        return ("mask", self._text_mask(entry, text, width, fake_bold, fake_italic))

    def _tofu(self, width):
        W, H = self.cw * width, self.ch
        m = Image.new("L", (W, H), 0)
        d = ImageDraw.Draw(m)
        top = self.baseline - round(self.px * 0.72)
        d.rectangle((1, max(0, top), W - 2, min(H - 1, self.baseline)), outline=255)
        return m

    def _text_mask(self, entry, text, width, fake_bold, fake_italic):
        W, H = self.cw * width, self.ch
        shaped = len(text) > 1 and self.raqm
        getf = self.font_raqm if shaped else self.font
        size = self.px
        for _ in range(40):
            f = getf(entry, size)
            l, t, r, b = f.getbbox(text, anchor="ls")
            iw, ih = r - l + (1 if fake_bold else 0), b - t
            if iw <= W and ih <= H or size <= 4:
                break
            scale = min(W / max(iw, 1), H / max(ih, 1))
            size = max(4, min(size - 1, int(size * scale)))
        adv = f.getlength(text)
        x = round((W - adv) / 2)
        if x + l < 0:
            x = -l
        if x + r + (1 if fake_bold else 0) > W:
            x = W - r - (1 if fake_bold else 0)
        y = self.baseline
        if y + t < 0:
            y = -t
        if y + b > H:
            y = H - b
        m = Image.new("L", (W, H), 0)
        d = ImageDraw.Draw(m)
        d.text((x, y), text, font=f, fill=255, anchor="ls")
        if fake_bold:
            d.text((x + 1, y), text, font=f, fill=255, anchor="ls")
        if fake_italic:
            k = 0.18
            m = m.transform(m.size, Image.AFFINE, (1, k, -k * self.baseline, 0, 1, 0),
                            resample=Image.BICUBIC)
        return m

    def _emoji(self, entry, text, width, box=None):
        W, H = box or (self.cw * width, self.ch)
        size = 109                       # Noto Color Emoji is a 109 px bitmap strike
        f = self.font_raqm(entry, size) if (len(text) > 1 and self.raqm) else self.font(entry, size)
        l, t, r, b = f.getbbox(text, anchor="ls")
        if r <= l or b <= t:
            return None
        img = Image.new("RGBA", (r - l, b - t), (0, 0, 0, 0))
        ImageDraw.Draw(img).text((-l, -t), text, font=f, anchor="ls", embedded_color=True)
        img = img.crop(img.getbbox() or (0, 0, 1, 1))
        target = min(W, H, round(self.px * 1.2)) if box is None else min(W, H)
        sc = min(target / img.width, target / img.height)
        nw, nh = max(1, round(img.width * sc)), max(1, round(img.height * sc))
        img = img.resize((nw, nh), Image.LANCZOS)
        out = Image.new("RGBA", (W, H), (0, 0, 0, 0))
        out.paste(img, ((W - nw) // 2, (H - nh) // 2))
        return ("rgba", out)

    # -- page ----------------------------------------------------------------
    def render(self, grid, cols, rows, title=None, cursor=None, cursor_style="block",
               pad=None, show_grid=False):
        cw, ch = self.cw, self.ch
        pad = round(self.px * 0.75) if pad is None else pad
        bar = round(ch * 1.6) if title is not None else 0
        border = 1 if title is not None else 0
        W = cols * cw + 2 * pad + 2 * border
        H = rows * ch + 2 * pad + bar + 2 * border
        bgc = self.pal["bg"]
        img = Image.new("RGB", (W, H), bgc)
        ox, oy = pad + border, pad + bar + border
        d = ImageDraw.Draw(img)

        if cursor is not None:
            cr, cc = cursor
            if 0 <= cr < rows and 0 <= cc < cols and grid[cr][cc].width == 0 and cc > 0:
                cc -= 1
            cursor = (cr, cc)

        # pass 1: backgrounds; pass 2: glyphs + decorations
        for pass_no in (1, 2):
            for r, row in enumerate(grid):
                y = oy + r * ch
                for c, cell in enumerate(row):
                    if cell.width == 0:
                        continue
                    wcells = min(cell.width, cols - c)
                    x = ox + c * cw
                    is_cur = cursor == (r, c) and cursor_style == "block"
                    fg, bg = self.cell_colours(cell.attr, cursor=is_cur)
                    if pass_no == 1:
                        if bg != self.pal["bg"]:
                            d.rectangle((x, y, x + wcells * cw - 1, y + ch - 1), fill=bg)
                        continue
                    fl = cell.attr.flags
                    if not fl & HIDDEN:
                        g = self.glyph(cell.text, wcells, bool(fl & BOLD), bool(fl & ITALIC))
                        if g is not None:
                            kind, im = g
                            if kind == "mask":
                                img.paste(fg, (x, y, x + im.width, y + im.height), im)
                            else:
                                img.paste(im, (x, y), im)
                    self._decorate(d, cell.attr, fg, x, y, wcells * cw)
        if cursor is not None and cursor_style != "block":
            cr, cc = cursor
            if 0 <= cr < rows and 0 <= cc < cols:
                x, y = ox + cc * cw, oy + cr * ch
                w = grid[cr][cc].width or 1
                col = self.pal["cursor"]
                if cursor_style == "bar":
                    d.rectangle((x, y, x + max(1, self.px // 8) - 1, y + ch - 1), fill=col)
                elif cursor_style == "underline":
                    d.rectangle((x, y + ch - max(2, self.px // 8), x + w * cw - 1, y + ch - 1), fill=col)
                else:
                    d.rectangle((x, y, x + w * cw - 1, y + ch - 1), outline=col)
        if show_grid:
            gc = tuple(min(255, v + 28) for v in bgc)
            for c in range(cols + 1):
                d.line((ox + c * cw, oy, ox + c * cw, oy + rows * ch - 1), fill=gc)
            for r in range(rows + 1):
                d.line((ox, oy + r * ch, ox + cols * cw - 1, oy + r * ch), fill=gc)
        if title is not None:
            self._chrome(img, title, bar)
        return img

    def _decorate(self, d, attr, fg, x, y, w):
        ul = attr.ul
        th = self.ul_th
        if ul:
            uc = self.colour(attr.ulc, fg) if attr.ulc is not None else fg
            uy = y + min(self.ul_pos, self.ch - th - (3 if ul == 2 else 0))
            if ul == 2:
                d.rectangle((x, uy, x + w - 1, uy + th - 1), fill=uc)
                d.rectangle((x, uy + th + 1, x + w - 1, uy + 2 * th), fill=uc)
            elif ul == 3:
                pts = [(x + i, uy + (0 if (i // 2) % 2 == 0 else th + 1)) for i in range(0, w + 1, 2)]
                d.line(pts, fill=uc, width=th)
            elif ul in (4, 5):
                step = 2 if ul == 4 else 4
                for i in range(0, w, step * 2 if ul == 5 else step):
                    d.rectangle((x + i, uy, x + min(w, i + (1 if ul == 4 else step)) - 1, uy + th - 1), fill=uc)
            else:
                d.rectangle((x, uy, x + w - 1, uy + th - 1), fill=uc)
        if attr.flags & STRIKE:
            sy = y + self.baseline - round(self.px * 0.3)
            d.rectangle((x, sy, x + w - 1, sy + th - 1), fill=fg)
        if attr.flags & OVERLINE:
            d.rectangle((x, y, x + w - 1, y + th - 1), fill=fg)

    def _chrome(self, img, title, bar):
        d = ImageDraw.Draw(img)
        W, H = img.size
        chrome, border = self.pal["chrome"], self.pal["border"]
        d.rectangle((0, 0, W - 1, bar), fill=chrome)
        d.line((0, bar, W - 1, bar), fill=border)
        d.rectangle((0, 0, W - 1, H - 1), outline=border)
        # traffic-light buttons, drawn supersampled so they are round
        rad = max(3, round(bar * 0.2))
        S = 4
        lights = Image.new("RGBA", ((rad * 2 + 1) * 3 * S + rad * 2 * S, (rad * 2 + 1) * S), (0, 0, 0, 0))
        ld = ImageDraw.Draw(lights)
        for i, col in enumerate(("#ff5f57", "#febc2e", "#28c840")):
            x0 = i * (rad * 2 + rad + 1) * S
            ld.ellipse((x0, 0, x0 + rad * 2 * S, rad * 2 * S), fill=_hex(col))
        lights = lights.resize((lights.width // S, lights.height // S), Image.LANCZOS)
        img.paste(lights, (round(bar * 0.45), (bar - lights.height) // 2 + 1), lights)
        # title text: proportional DejaVu Sans with per-character fallback
        size = max(8, round(self.px * 0.85))
        runs = []
        total = 0
        for chx in title:
            if char_width(chx) < 0:
                continue
            emoji = char_width(chx) == 2 and _is_emoji_cell(chx, 2)
            fam = self.fonts.pick_family(chx, emoji)
            if fam == self.fonts.main_family and "DejaVu Sans" in self.fonts.by_family \
                    and self.fonts.face("DejaVu Sans", False, False)[0].has(ord(chx)):
                fam = "DejaVu Sans"
            if fam is None:
                fam = self.fonts.main_family
            entry, _, _ = self.fonts.face(fam, False, False)
            if fam == EMOJI_FAMILY:
                em = round(size * 1.15)
                g = self._emoji(entry, chx, 1, box=(em, em))
                if g is None:
                    continue
                runs.append((None, g[1], em + 2))
                total += em + 2
                continue
            f = self.font(entry, size)
            adv = f.getlength(chx)
            runs.append((chx, f, adv))
            total += adv
        x = (W - total) / 2
        y = bar // 2 + round(size * 0.36)
        col = self.pal["title"]
        for chx, f, adv in runs:
            if chx is None:              # colour emoji image
                img.paste(f, (round(x) + 1, (bar - f.height) // 2), f)
            else:
                d.text((round(x), y), chx, font=f, fill=col, anchor="ls")
            x += adv


def main(argv=None):
    ap = argparse.ArgumentParser(description="Render a `tmux capture-pane -p -e` capture to PNG.")
    ap.add_argument("input", help="capture file (- for stdin)")
    ap.add_argument("output", help="PNG to write")
    ap.add_argument("--cols", type=int, help="pane width in cells (default: widest line)")
    ap.add_argument("--rows", type=int, help="pane height in cells (default: number of lines)")
    ap.add_argument("--font-size", type=int, default=16, help="font size in px (default 16)")
    ap.add_argument("--line-height", type=float, default=1.1,
                    help="line height as a multiple of the font's ascent+descent (default 1.1)")
    ap.add_argument("--title", help="draw a window frame with this title")
    ap.add_argument("--cursor", help="ROW,COL (0-based, as tmux #{cursor_y},#{cursor_x})")
    ap.add_argument("--cursor-style", choices=("block", "bar", "underline", "hollow"), default="block")
    ap.add_argument("--palette", choices=sorted(PALETTES), default="dark")
    ap.add_argument("--bold-bright", action="store_true", help="bold also brightens colours 0-7")
    ap.add_argument("--grapheme-widths", action="store_true",
                    help="measure whole grapheme clusters (wcwidth.wcswidth) instead of tmux 3.3 rules")
    ap.add_argument("--padding", type=int, help="padding around the grid in px")
    ap.add_argument("--font", help="path of a main monospace font to use instead of DejaVu Sans Mono")
    ap.add_argument("--grid", action="store_true", help="overlay faint cell grid (for checking alignment)")
    ap.add_argument("--strict", action="store_true", help="exit 3 if any glyph has no font")
    ap.add_argument("-v", "--verbose", action="store_true", help="list fonts used")
    a = ap.parse_args(argv)

    if a.grapheme_widths and not hasattr(_wcwidth, "iter_graphemes"):
        ap.error("--grapheme-widths needs wcwidth >= 0.3 (pip install -U wcwidth)")
    data = sys.stdin.buffer.read() if a.input == "-" else open(a.input, "rb").read()
    text = data.decode("utf-8", errors="replace")
    grid, cols, rows = parse(text, a.cols, a.rows, a.grapheme_widths)
    cursor = None
    if a.cursor:
        try:
            cr, cc = (int(v) for v in a.cursor.split(","))
            cursor = (cr, cc)
        except ValueError:
            ap.error("--cursor wants ROW,COL")
    if a.font and not os.path.isfile(a.font):
        ap.error(f"--font: no such file: {a.font}")
    if a.font_size < 6:
        ap.error("--font-size must be at least 6")
    fonts = FontDB(a.font, a.verbose)
    rnd = Renderer(fonts, a.font_size, a.line_height, dict(PALETTES[a.palette]), a.bold_bright)
    img = rnd.render(grid, cols, rows, a.title, cursor, a.cursor_style, a.padding, a.grid)
    img.save(a.output, optimize=True)
    if a.verbose:
        print(f"ansi_to_png: {cols}x{rows} cells of {rnd.cw}x{rnd.ch}px -> {img.width}x{img.height} "
              f"{a.output}", file=sys.stderr)
        for fam, texts in sorted(rnd.used.items()):
            sample = "".join(sorted(texts))[:60]
            print(f"  {fam}: {sample}", file=sys.stderr)
    if rnd.missing:
        items = ", ".join(f"U+{ord(c):04X} {c!r} ({pkg})" for c, pkg in sorted(rnd.missing.items()))
        print(f"ansi_to_png: no installed font has: {items}; drawn as boxes. "
              f"Install the Debian package named.", file=sys.stderr)
        if a.strict:
            return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
