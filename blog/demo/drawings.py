"""Blueprint-style technical line drawings for the demo posts, drawn with Pillow alone.

`draw(slug)` draws the illustration its post's alt text describes (see posts.py);
`draw_generated(seed)` draws a cheap composition for synthetic benchmark posts. Everything is
laid out on a 1600x900 design sheet and scaled uniformly to the requested size, drawn at twice
the size and reduced, so lines come out smooth. The output depends only on the arguments."""

from __future__ import annotations

import functools
import math
import random
import zlib
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw, ImageFont

Point = tuple[float, float]
Color = tuple[int, int, int]

DESIGN_W, DESIGN_H = 1600, 900
SUPERSAMPLE = 2

BG: Color = (14, 62, 142)  # blueprint blue
PANEL: Color = (20, 72, 156)  # a box's paper, a shade lighter than the sheet
DARK: Color = (8, 34, 86)
GRID_FINE: Color = (27, 77, 157)
GRID_COARSE: Color = (44, 96, 176)
INK: Color = (232, 242, 250)  # off-white line work
CYAN: Color = (166, 216, 240)  # pale cyan labels and secondary lines
DIM: Color = (112, 158, 212)
GREY: Color = (152, 164, 184)
RED: Color = (255, 94, 94)
RED_PALE: Color = (255, 186, 186)
BLUE: Color = (96, 208, 255)  # saved state: a bright light blue that reads on the sheet
GREEN: Color = (112, 226, 142)


@functools.lru_cache(maxsize=64)
def _font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=px)


def _lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def bezier(p0: Point, p1: Point, p2: Point, p3: Point, n: int = 48) -> list[Point]:
    """Points along a cubic Bézier curve."""
    pts = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        pts.append(
            (
                u**3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
                u**3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1],
            )
        )
    return pts


def arc_points(c: Point, r: float, a0: float, a1: float, n: int = 64) -> list[Point]:
    """Points on a circle from angle a0 to a1 in degrees (clockwise on screen, 0 = east)."""
    return [
        (
            c[0] + r * math.cos(math.radians(a0 + (a1 - a0) * i / n)),
            c[1] + r * math.sin(math.radians(a0 + (a1 - a0) * i / n)),
        )
        for i in range(n + 1)
    ]


def _rotate(p: Point, c: Point, deg: float) -> Point:
    a = math.radians(deg)
    dx, dy = p[0] - c[0], p[1] - c[1]
    return (c[0] + dx * math.cos(a) - dy * math.sin(a), c[1] + dx * math.sin(a) + dy * math.cos(a))


class Sheet:
    """A canvas in design units (1600x900), scaled uniformly and centred on the image."""

    def __init__(self, width: int, height: int, ss: int = SUPERSAMPLE):
        self.width, self.height, self.ss = width, height, ss
        self.W, self.H = width * ss, height * ss
        self.s = min(self.W / DESIGN_W, self.H / DESIGN_H)
        self.ox = (self.W - DESIGN_W * self.s) / 2
        self.oy = (self.H - DESIGN_H * self.s) / 2
        # The image's edges in design units (beyond 0..1600 when the aspect ratio differs).
        self.left, self.top = -self.ox / self.s, -self.oy / self.s
        self.right, self.bottom = (self.W - self.ox) / self.s, (self.H - self.oy) / self.s
        self.img = Image.new("RGB", (self.W, self.H), BG)
        self.d = ImageDraw.Draw(self.img)

    def pt(self, p: Point) -> Point:
        return (self.ox + p[0] * self.s, self.oy + p[1] * self.s)

    def px(self, v: float) -> int:
        return max(1, round(v * self.s))

    def line(self, pts: Sequence[Point], color: Color = INK, w: float = 3.0) -> None:
        if len(pts) >= 2:
            self.d.line([self.pt(p) for p in pts], fill=color, width=self.px(w), joint="curve")

    def dashed(
        self,
        pts: Sequence[Point],
        color: Color = INK,
        w: float = 3.0,
        dash: float = 14.0,
        gap: float = 10.0,
    ) -> None:
        """A dashed polyline; the dash pattern carries on round corners."""
        on, left = True, dash
        cur: list[Point] = [pts[0]]
        for a, b in zip(pts, pts[1:], strict=False):
            seg = math.dist(a, b)
            t = 0.0
            while seg - t > left:
                t += left
                p = _lerp(a, b, t / seg)
                if on:
                    cur.append(p)
                    self.line(cur, color, w)
                else:
                    cur = [p]
                on = not on
                left = dash if on else gap
            left -= seg - t
            if on:
                cur.append(b)
        if on:
            self.line(cur, color, w)

    def poly(
        self,
        pts: Sequence[Point],
        outline: Color | None = INK,
        fill: Color | None = None,
        w: float = 3.0,
        dashed: bool = False,
    ) -> None:
        if fill is not None:
            self.d.polygon([self.pt(p) for p in pts], fill=fill)
        if outline is not None:
            ring = [*pts, pts[0]]
            if dashed:
                self.dashed(ring, outline, w, dash=10, gap=7)
            else:
                self.line(ring, outline, w)

    def rect(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        outline: Color | None = INK,
        fill: Color | None = None,
        w: float = 3.0,
        r: float = 0,
        dashed: bool = False,
    ) -> None:
        if dashed:
            if fill is not None:
                self.rect(x0, y0, x1, y1, outline=None, fill=fill)
            self.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], outline=outline, w=w, dashed=True)
            return
        box = [self.pt((x0, y0)), self.pt((x1, y1))]
        width = self.px(w) if outline is not None else 0
        if r:
            self.d.rounded_rectangle(
                box, radius=r * self.s, fill=fill, outline=outline, width=width
            )
        else:
            self.d.rectangle(box, fill=fill, outline=outline, width=width)

    def circle(
        self,
        c: Point,
        r: float,
        outline: Color | None = INK,
        fill: Color | None = None,
        w: float = 3.0,
        dashed: bool = False,
    ) -> None:
        if dashed:
            if fill is not None:
                self.circle(c, r, outline=None, fill=fill)
            n = max(24, int(r / 2))
            self.dashed(arc_points(c, r, -90, 270, n), outline or INK, w, dash=8, gap=6)
            return
        x, y = self.pt(c)
        rr = r * self.s
        width = self.px(w) if outline is not None else 0
        self.d.ellipse([x - rr, y - rr, x + rr, y + rr], fill=fill, outline=outline, width=width)

    def text(
        self,
        p: Point,
        s: str,
        size: float = 15,
        color: Color = CYAN,
        anchor: str = "la",
        bold: bool = False,
    ) -> None:
        font = _font(max(7, round(size * self.s)))
        stroke = max(1, round(size * self.s / 24)) if bold else 0
        self.d.text(
            self.pt(p),
            s,
            font=font,
            fill=color,
            anchor=anchor,
            stroke_width=stroke,
            stroke_fill=color,
        )

    def finish(self) -> Image.Image:
        img = self.img.reduce(self.ss) if self.ss > 1 else self.img
        if img.size != (self.width, self.height):
            img = img.resize((self.width, self.height), Image.Resampling.BOX)
        return img


# ----------------------------------------------------------------------------------------------
# Sheet furniture: grid, border and title block


def grid(sh: Sheet) -> None:
    for step, color in ((20, GRID_FINE), (100, GRID_COARSE)):
        k = math.floor(sh.left / step)
        while k * step <= sh.right:
            x = sh.pt((k * step, 0))[0]
            sh.d.line([(x, 0), (x, sh.H)], fill=color, width=max(1, round(sh.s * 0.9)))
            k += 1
        k = math.floor(sh.top / step)
        while k * step <= sh.bottom:
            y = sh.pt((0, k * step))[1]
            sh.d.line([(0, y), (sh.W, y)], fill=color, width=max(1, round(sh.s * 0.9)))
            k += 1


def frame(sh: Sheet) -> tuple[float, float, float, float]:
    """A double border with zone marks; returns the inner border's box."""
    o = (sh.left + 16, sh.top + 16, sh.right - 16, sh.bottom - 16)
    i = (sh.left + 32, sh.top + 32, sh.right - 32, sh.bottom - 32)
    sh.rect(*o, outline=CYAN, w=1.5)
    sh.rect(*i, outline=INK, w=2.5)
    cols, rows = 8, 4
    for n in range(cols):
        x = o[0] + (o[2] - o[0]) * n / cols
        xm = o[0] + (o[2] - o[0]) * (n + 0.5) / cols
        if n:
            sh.line([(x, o[1]), (x, i[1])], CYAN, 1.5)
            sh.line([(x, o[3]), (x, i[3])], CYAN, 1.5)
        sh.text((xm, (o[1] + i[1]) / 2), str(n + 1), 10, DIM, "mm")
        sh.text((xm, (o[3] + i[3]) / 2), str(n + 1), 10, DIM, "mm")
    for n in range(rows):
        y = o[1] + (o[3] - o[1]) * n / rows
        ym = o[1] + (o[3] - o[1]) * (n + 0.5) / rows
        if n:
            sh.line([(o[0], y), (i[0], y)], CYAN, 1.5)
            sh.line([(o[2], y), (i[2], y)], CYAN, 1.5)
        sh.text(((o[0] + i[0]) / 2, ym), "ABCD"[n], 10, DIM, "mm")
        sh.text(((o[2] + i[2]) / 2, ym), "ABCD"[n], 10, DIM, "mm")
    return i


def title_block(sh: Sheet, inner: tuple[float, float, float, float], title: str, dwg: str) -> None:
    x1, y1 = inner[2], inner[3]
    x0, y0 = x1 - 420, y1 - 104
    sh.rect(x0, y0, x1, y1, outline=INK, fill=BG, w=2.5)
    ya, yb = y0 + 38, y0 + 72
    sh.line([(x0, ya), (x1, ya)], INK, 1.5)
    sh.line([(x0, yb), (x1, yb)], INK, 1.5)
    sh.line([(x0 + 230, y0), (x0 + 230, ya)], INK, 1.5)
    sh.text((x0 + 14, y0 + 20), "CEDANA", 22, INK, "lm", bold=True)
    sh.text((x0 + 244, y0 + 13), "ENGINEERING", 10, DIM, "lm")
    sh.text((x0 + 244, y0 + 27), "BLOG FIGURE", 10, DIM, "lm")
    sh.text((x0 + 14, ya + 9), "TITLE", 9, DIM, "lm")
    sh.text((x0 + 14, ya + 23), title, 14, INK, "lm")
    cells = [("DWG NO.", dwg), ("SCALE", "NTS"), ("SHEET", "1 / 1")]
    cw = (x1 - x0) / 3
    for n, (label, value) in enumerate(cells):
        cx = x0 + cw * n
        if n:
            sh.line([(cx, yb), (cx, y1)], INK, 1.5)
        sh.text((cx + 10, yb + 9), label, 9, DIM, "lm")
        sh.text((cx + 10, yb + 23), value, 13, INK, "lm")


# ----------------------------------------------------------------------------------------------
# Reusable glyphs


def arrowhead(sh: Sheet, tip: Point, frm: Point, color: Color = INK, size: float = 16) -> None:
    d = math.dist(tip, frm) or 1.0
    ux, uy = (tip[0] - frm[0]) / d, (tip[1] - frm[1]) / d
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    half = size * 0.45
    sh.poly(
        [tip, (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)],
        outline=None,
        fill=color,
    )


def arrow(
    sh: Sheet,
    pts: Sequence[Point],
    color: Color = INK,
    w: float = 3.0,
    head: float = 16,
    dashed: bool = False,
) -> None:
    """A polyline (or sampled curve) ending in an arrowhead."""
    pts = list(pts)
    tip = pts[-1]
    # Walk back from the tip by the head's length to aim the head and stop the shaft short.
    back, i, acc = tip, len(pts) - 1, 0.0
    while i > 0:
        seg = math.dist(pts[i], pts[i - 1])
        if acc + seg >= head:
            back = _lerp(pts[i], pts[i - 1], (head - acc) / seg if seg else 0)
            break
        acc += seg
        i -= 1
        back = pts[i]
    shaft = [*pts[:i], _lerp(back, tip, 0.3)] if i > 0 else [pts[0], back]
    if dashed:
        sh.dashed(shaft, color, w)
    else:
        sh.line(shaft, color, w)
    arrowhead(sh, tip, back, color, head)


def brace(
    sh: Sheet, a: Point, b: Point, depth: float = 26, color: Color = INK, w: float = 2.5
) -> None:
    """A curly bracket from a to b whose point sticks out to the left of a→b."""
    length = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    nx, ny = uy, -ux  # left of the direction of travel (screen coordinates)
    h = depth / 2
    q = min(length * 0.06, depth * 1.2)
    m = _lerp(a, b, 0.5)

    def off(p: Point, along: float, out: float) -> Point:
        return (p[0] + ux * along + nx * out, p[1] + uy * along + ny * out)

    pts = bezier(a, off(a, 0, h), off(a, 0, h), off(a, q, h), 12)
    pts += bezier(off(m, -q, h), off(m, 0, h), off(m, 0, h), off(m, 0, depth), 12)
    pts += bezier(off(m, 0, depth), off(m, 0, h), off(m, 0, h), off(m, q, h), 12)
    pts += bezier(off(b, -q, h), off(b, 0, h), off(b, 0, h), b, 12)
    sh.line(pts, color, w)


def tick(sh: Sheet, c: Point, size: float, color: Color = GREEN, w: float = 4) -> None:
    s = size
    sh.line(
        [
            (c[0] - 0.42 * s, c[1] + 0.02 * s),
            (c[0] - 0.12 * s, c[1] + 0.32 * s),
            (c[0] + 0.45 * s, c[1] - 0.34 * s),
        ],
        color,
        w,
    )


def cross(sh: Sheet, c: Point, size: float, color: Color = RED, w: float = 4) -> None:
    h = size / 2
    sh.line([(c[0] - h, c[1] - h), (c[0] + h, c[1] + h)], color, w)
    sh.line([(c[0] - h, c[1] + h), (c[0] + h, c[1] - h)], color, w)


def strike(sh: Sheet, x0: float, y0: float, x1: float, y1: float, color: Color = INK, w=3) -> None:
    """Strike a box out with an X from corner to corner."""
    sh.line([(x0, y0), (x1, y1)], color, w)
    sh.line([(x0, y1), (x1, y0)], color, w)


def hatched_rect(
    sh: Sheet,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    color: Color = RED,
    step: float = 6,
    w: float = 1.5,
    outline: bool = True,
) -> None:
    """A rectangle filled with 45° hatching, clipped to its edges."""
    c = x0 + y0 + step / 2
    while c < x1 + y1:
        # The line x + y = c inside the box.
        xa = max(x0, c - y1)
        xb = min(x1, c - y0)
        if xb > xa:
            sh.line([(xa, c - xa), (xb, c - xb)], color, w)
        c += step
    if outline:
        sh.rect(x0, y0, x1, y1, outline=color, w=w + 0.5)


def saved_icon(
    sh: Sheet, c: Point, size: float = 56, color: Color = BLUE, w: float = 3, fill: Color = BG
) -> None:
    """A floppy-disk glyph standing for saved state (a checkpoint)."""
    s = size
    x, y = c[0] - s / 2, c[1] - s / 2
    cut = 0.2 * s
    sh.poly(
        [(x, y), (x + s - cut, y), (x + s, y + cut), (x + s, y + s), (x, y + s)], color, fill, w
    )
    sh.rect(x + 0.22 * s, y, x + 0.7 * s, y + 0.32 * s, outline=color, w=w * 0.8)
    sh.rect(x + 0.52 * s, y + 0.07 * s, x + 0.62 * s, y + 0.25 * s, outline=None, fill=color)
    sh.rect(x + 0.15 * s, y + 0.5 * s, x + 0.85 * s, y + s, outline=color, w=w * 0.8)
    for f in (0.65, 0.8):
        sh.line([(x + 0.25 * s, y + f * s), (x + 0.75 * s, y + f * s)], color, max(1.0, w * 0.5))


def timer_icon(sh: Sheet, c: Point, r: float = 24, color: Color = BLUE, w: float = 3) -> None:
    sh.rect(
        c[0] - r * 0.25, c[1] - r * 1.38, c[0] + r * 0.25, c[1] - r * 1.12, outline=None, fill=color
    )
    sh.line([(c[0], c[1] - r * 1.15), (c[0], c[1] - r)], color, w)
    sh.line(
        [_rotate((c[0], c[1] - r * 1.02), c, 45), _rotate((c[0], c[1] - r * 1.22), c, 45)], color, w
    )
    sh.circle(c, r, outline=color, fill=BG, w=w)
    sh.line([(c[0], c[1]), _rotate((c[0], c[1] - r * 0.68), c, 60)], color, w)
    sh.circle(c, max(1.5, r * 0.1), outline=None, fill=color)


def clock_icon(sh: Sheet, c: Point, r: float = 28, color: Color = RED, w: float = 3) -> None:
    sh.circle(c, r, outline=color, fill=BG, w=w)
    for k in range(12):
        inner = 0.78 if k % 3 == 0 else 0.86
        sh.line(
            [
                _rotate((c[0], c[1] - r * inner), c, k * 30),
                _rotate((c[0], c[1] - r * 0.95), c, k * 30),
            ],
            color,
            1.5,
        )
    sh.line([c, (c[0], c[1] - r * 0.65)], color, w)
    sh.line([c, (c[0] + r * 0.45, c[1] + r * 0.1)], color, w)


def moon_icon(sh: Sheet, c: Point, r: float = 28, color: Color = RED, w: float = 3) -> None:
    """A crescent: the part of one disc not covered by a second, offset disc."""
    ic, ir = (c[0] + 0.5 * r, c[1] - 0.25 * r), 0.82 * r
    away = math.degrees(math.atan2(ic[1] - c[1], ic[0] - c[0]))
    outer = [p for p in arc_points(c, r, away, away + 360, 96) if math.dist(p, ic) >= ir]
    inner = [p for p in arc_points(ic, ir, away, away + 360, 96) if math.dist(p, c) <= r]
    if math.dist(outer[-1], inner[0]) > math.dist(outer[-1], inner[-1]):
        inner.reverse()
    sh.poly(outer + inner, color, None, w)


def document_icon(
    sh: Sheet,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    color: Color = INK,
    fold: float = 40,
    fill: Color | None = BG,
    w: float = 3,
    ruled: bool = False,
) -> None:
    """A sheet of paper with its top right corner folded over."""
    sh.poly([(x0, y0), (x1 - fold, y0), (x1, y0 + fold), (x1, y1), (x0, y1)], color, fill, w)
    sh.line([(x1 - fold, y0), (x1 - fold, y0 + fold), (x1, y0 + fold)], color, w * 0.8)
    if ruled:
        step = max(10.0, (y1 - y0) / 9)
        y = y0 + fold + step * 0.6
        n = 0
        while y < y1 - step * 0.5:
            end = x1 - (x1 - x0) * (0.18 if n % 3 == 2 else 0.1)
            sh.line([(x0 + (x1 - x0) * 0.12, y), (end, y)], color, max(1.0, w * 0.5))
            y += step
            n += 1


def gpu_card(
    sh: Sheet,
    c: Point,
    w: float,
    h: float,
    color: Color = INK,
    status: Color | None = GREY,
    angle: float = 0,
    dashed: bool = False,
    fill: Color | None = BG,
    cells: tuple[int, int, Color] | None = None,
    struck: Color | None = None,
    lw: float = 2.5,
) -> None:
    """A graphics card: board, fans, mounting plate and a status bar (or a row of memory cells).

    `angle` tilts the whole card about its centre; `cells=(n, filled, colour)` draws n memory
    cells of which the first `filled` are coloured, instead of a status bar."""

    def t(u: float, v: float) -> Point:
        return _rotate((c[0] + u, c[1] + v), c, angle)

    def box(u0: float, v0: float, u1: float, v1: float) -> list[Point]:
        return [t(u0, v0), t(u1, v0), t(u1, v1), t(u0, v1)]

    hw, hh = w / 2, h / 2
    sh.poly(box(-hw, -hh, hw, hh), color, fill, lw, dashed=dashed)
    # Mounting plate down the left edge.
    sh.line([t(-hw + 0.07 * w, -hh), t(-hw + 0.07 * w, hh)], color, lw * 0.6)
    bottom_band = 0.26 * h
    top, bot = -hh + 0.08 * h, hh - bottom_band
    left, right = -hw + 0.12 * w, hw - 0.05 * w
    n = 2 if (right - left) > 1.5 * (bot - top) else 1
    r = min((bot - top) / 2, (right - left) / (2 * n)) * 0.82
    for k in range(n):
        fc = t(left + (right - left) * (k + 0.5) / n, (top + bot) / 2)
        sh.circle(fc, r, outline=color, w=lw * 0.7, dashed=dashed)
        sh.circle(fc, r * 0.22, outline=color, w=lw * 0.6)
        for b in range(5):
            a = angle + b * 72
            p0 = (
                fc[0] + r * 0.24 * math.cos(math.radians(a)),
                fc[1] + r * 0.24 * math.sin(math.radians(a)),
            )
            p1 = (
                fc[0] + r * 0.9 * math.cos(math.radians(a + 40)),
                fc[1] + r * 0.9 * math.sin(math.radians(a + 40)),
            )
            sh.line([p0, p1], color, lw * 0.45)
    v0, v1 = hh - bottom_band * 0.72, hh - bottom_band * 0.3
    if cells:
        count, filled, cell_color = cells
        span = right - left
        pitch = span / count
        for k in range(count):
            u0 = left + pitch * k + pitch * 0.1
            u1 = left + pitch * (k + 1) - pitch * 0.1
            sh.poly(
                box(u0, v0, u1, v1),
                color if k >= filled else cell_color,
                cell_color if k < filled else None,
                lw * 0.5,
            )
    elif status is not None:
        sh.poly(box(left, v0, right, v1), status, status, lw * 0.5)
    if struck:
        sh.line([t(-hw, -hh), t(hw, hh)], struck, lw * 1.3)
        sh.line([t(-hw, hh), t(hw, -hh)], struck, lw * 1.3)


def node_box(
    sh: Sheet,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    title: str | None = None,
    color: Color = INK,
    dashed: bool = False,
    fill: Color | None = PANEL,
    w: float = 3,
) -> None:
    """A server node: a box with a header strip and status lights."""
    if dashed:
        sh.rect(x0, y0, x1, y1, outline=color, fill=fill, w=w, dashed=True)
    else:
        sh.rect(x0, y0, x1, y1, outline=color, fill=fill, w=w, r=6)
    hy = y0 + min(26, (y1 - y0) * 0.22)
    sh.line([(x0, hy), (x1, hy)], color, w * 0.6)
    for k in range(3):
        sh.circle((x1 - 14 - k * 14, (y0 + hy) / 2), 3.5, outline=None, fill=color)
    if title:
        sh.text((x0 + 10, (y0 + hy) / 2), title, 12, color, "lm")


def reset_arrow(sh: Sheet, c: Point, r: float = 26, color: Color = INK, w: float = 3.5) -> None:
    pts = arc_points(c, r, -60, 220, 40)
    arrow(sh, pts, color, w, head=r * 0.6)


def warning_triangle(sh: Sheet, c: Point, size: float = 70, color: Color = INK, w=3) -> None:
    h = size * 0.87
    sh.poly(
        [(c[0], c[1] - h / 2), (c[0] + size / 2, c[1] + h / 2), (c[0] - size / 2, c[1] + h / 2)],
        color,
        BG,
        w,
    )
    sh.line([(c[0], c[1] - h * 0.12), (c[0], c[1] + h * 0.22)], color, w * 1.2)
    sh.circle((c[0], c[1] + h * 0.35), w * 0.9, outline=None, fill=color)


def cordon(sh: Sheet, c: Point, width: float = 90, color: Color = INK, w: float = 3) -> None:
    """A road barrier: a striped board on two legs."""
    x0, x1 = c[0] - width / 2, c[0] + width / 2
    y0, y1 = c[1] - width * 0.3, c[1] - width * 0.05
    for lx in (x0 + width * 0.18, x1 - width * 0.18):
        sh.line([(lx, y1), (lx, c[1] + width * 0.35)], color, w)
        sh.line(
            [(lx - width * 0.1, c[1] + width * 0.35), (lx + width * 0.1, c[1] + width * 0.35)],
            color,
            w,
        )
    sh.rect(x0, y0, x1, y1, outline=None, fill=BG)
    hatched_rect(sh, x0, y0, x1, y1, color, step=width * 0.16, w=w * 1.3, outline=False)
    sh.rect(x0, y0, x1, y1, outline=color, w=w)


def dimension(
    sh: Sheet, x0: float, x1: float, y: float, text: str, color: Color = CYAN, ext: float = 14
) -> None:
    """A horizontal dimension line with arrowheads at both ends and its figure above."""
    sh.line([(x0, y - ext), (x0, y + ext * 0.6)], color, 1.2)
    sh.line([(x1, y - ext), (x1, y + ext * 0.6)], color, 1.2)
    if x1 - x0 > 30:
        arrow(sh, [((x0 + x1) / 2, y), (x0, y)], color, 1.2, head=10)
        arrow(sh, [((x0 + x1) / 2, y), (x1, y)], color, 1.2, head=10)
    sh.text(((x0 + x1) / 2, y - 6), text, 13, color, "ms")


# ----------------------------------------------------------------------------------------------
# The thirteen illustrations


def _stateful_inference(sh: Sheet) -> None:
    nx0, ny0, nx1, ny1 = 240, 150, 1010, 640
    node_box(sh, nx0, ny0, nx1, ny1, "NODE · 8 x GPU · TENSOR PARALLEL")
    filled = [5, 6, 5, 7, 6, 6, 7, 6]
    for k in range(8):
        row, col = divmod(k, 4)
        cx = nx0 + 105 + col * 187
        cy = ny0 + 150 + row * 215
        gpu_card(sh, (cx, cy), 160, 120, cells=(8, filled[k], BLUE))
        sh.text((cx - 80, cy + 74), f"GPU {k}", 11, DIM, "lm")
    # Sessions streaming in from the left.
    for k in range(6):
        y = 200 + k * 80
        sh.circle((110, y), 9, outline=BLUE, fill=BG, w=2.5)
        arrow(sh, [(124, y), (nx0 - 6, y)], CYAN, 1.5, head=10)
    sh.text((110, 160), "SESSIONS", 12, CYAN, "mm")
    # The state gauge rising toward the VRAM line.
    gx0, gx1, gtop, gbot = 1190, 1270, 140, 640
    cap_y = 190
    sh.rect(gx0, gtop, gx1, gbot, outline=INK, fill=BG, w=3, r=8)
    weights_top = gbot - 140
    hatched_rect(sh, gx0 + 8, weights_top, gx1 - 8, gbot - 8, GREY, step=8, w=1.5)
    level = 300
    y = weights_top - 6
    while y - 34 >= level:
        sh.rect(gx0 + 8, y - 34, gx1 - 8, y, outline=None, fill=BLUE)
        y -= 40
    sh.dashed([(gx0 - 70, cap_y), (gx1 + 90, cap_y)], RED, 3, dash=16, gap=9)
    sh.text((gx1 + 96, cap_y), "VRAM CAPACITY", 13, RED, "lm")
    for k in range(11):
        ty = gbot - k * 45
        sh.line([(gx1, ty), (gx1 + (16 if k % 2 == 0 else 9), ty)], CYAN, 1.5)
    arrow(sh, [(gx0 - 40, 540), (gx0 - 40, level + 10)], BLUE, 3, head=18)
    sh.text((gx1 + 26, (weights_top + gbot) / 2), "WEIGHTS", 12, GREY, "lm")
    sh.text((gx1 + 26, (level + weights_top) / 2), "SESSION STATE", 12, BLUE, "lm")
    sh.dashed([(nx1, 395), (gx0 - 60, 395)], CYAN, 1.5, dash=8, gap=6)
    sh.text((1230, 675), "STATE GAUGE", 12, CYAN, "mm")


def _error_budget(sh: Sheet) -> None:
    n, size, pitch = 43, 24, 32.0
    x0 = (DESIGN_W - (pitch * (n - 1) + size)) / 2
    y0 = 330
    brace(sh, (x0, y0 - 14), (x0 + pitch * (n - 1) + size, y0 - 14), 30, INK, 2.5)
    sh.text((DESIGN_W / 2, y0 - 58), "MONTHLY 99.9% ERROR BUDGET · ABOUT 43 MIN", 16, INK, "ms")
    for k in range(n):
        x = x0 + k * pitch
        if k < 20:
            sh.rect(x, y0, x + size, y0 + size, outline=None, fill=RED)
        elif k < 30:
            sh.rect(x, y0, x + size, y0 + size, outline=None, fill=BG)
            hatched_rect(sh, x, y0, x + size, y0 + size, RED, step=6, w=1.5)
        else:
            sh.rect(x, y0, x + size, y0 + size, outline=INK, fill=BG, w=2)
    ly = y0 + size + 36
    x20 = x0 + 19 * pitch + size
    x30 = x0 + 29 * pitch + size
    sh.line([(x0, ly), (x20, ly)], RED, 4)
    sh.dashed([(x20 + 4, ly), (x30, ly)], RED, 4, dash=12, gap=8)
    for x in (x0, x20, x30):
        sh.line([(x, ly - 8), (x, ly + 8)], RED, 2)
    sh.text(((x0 + x20) / 2, ly + 24), "ONE RESTART · RELOAD AND WARM-UP", 13, RED, "mt")
    sh.text(((x20 + x30) / 2, ly + 24), "IF IT RUNS LONG", 13, RED, "mt")
    sh.text((x30 + 12, ly), "REMAINING", 13, CYAN, "lm")
    # A restore from saved state.
    by = 600
    sh.rect(x0, by, x0 + size, by + size, outline=None, fill=BLUE)
    saved_icon(sh, (x0 + size + 56, by + size / 2), 56)
    sh.text((x0 + size + 104, by + size / 2 - 10), "RESTORE FROM SAVED STATE", 14, BLUE, "lm")
    sh.text((x0 + size + 104, by + size / 2 + 12), "ABOUT ONE SQUARE OF THE BUDGET", 12, CYAN, "lm")
    sh.dashed([(x0 + size / 2, ly + 60), (x0 + size / 2, by - 8)], CYAN, 1.5, dash=6, gap=6)
    sh.rect(x0 + pitch * 30, by, x0 + pitch * 30 + size, by + size, outline=INK, fill=BG, w=2)
    sh.text((x0 + pitch * 30 + size + 14, by + size / 2), "= ABOUT 1 MINUTE", 13, CYAN, "lm")


def _filing(sh: Sheet) -> None:
    dx0, dy0, dx1, dy1 = 200, 120, 590, 740
    document_icon(sh, dx0, dy0, dx1, dy1, INK, fold=70, fill=PANEL, w=3)
    for k, y in enumerate(range(230, 420, 34)):
        end = dx1 - (120 if k % 3 == 2 else 50)
        sh.line([(dx0 + 40, y), (end, y)], CYAN, 2)
    fx0, fy0, fx1, fy1 = dx0 + 40, 460, dx1 - 50, 530
    sh.text((fx0, fy0 - 14), "RECOVERY TIME", 11, CYAN, "ls")
    sh.rect(fx0, fy0, fx1, fy1, outline=INK, fill=BG, w=2.5)
    sh.rect(fx0 + 18, fy0 + 26, fx0 + 62, fy1 - 26, outline=None, fill=BLUE)
    for y in (580, 614):
        sh.line([(dx0 + 40, y), (dx1 - 170, y)], CYAN, 2)
    sh.circle((dx1 - 80, 650), 34, outline=BLUE, fill=BG, w=3.5)
    tick(sh, (dx1 - 80, 652), 36, BLUE, 4)
    # The two candidates.
    bx = 760
    sh.text((bx, 290), "RELOAD FROM SCRATCH", 13, GREY, "ls")
    sh.dashed([(bx, 320), (1450, 320)], GREY, 26, dash=30, gap=14)
    dimension(sh, bx, 1450, 380, "20-30 MIN", GREY)
    sy = 560
    sh.rect(bx, sy - 13, bx + 46, sy + 13, outline=None, fill=BLUE)
    timer_icon(sh, (bx + 100, sy + 4), 24)
    sh.text((bx + 142, sy - 8), "~1 MIN", 18, BLUE, "lm")
    sh.text((bx + 142, sy + 16), "RESTORE, MEASURED", 12, CYAN, "lm")
    curve = bezier(
        (bx - 4, sy), (bx - 90, sy), (fx1 + 90, (fy0 + fy1) / 2), (fx0 + 70, (fy0 + fy1) / 2), 48
    )
    arrow(sh, curve, BLUE, 2, head=14)


def _jupyter(sh: Sheet) -> None:
    dx0, dy0, dx1, dy1 = 110, 210, 380, 610
    document_icon(sh, dx0, dy0, dx1, dy1, INK, fold=46, fill=PANEL, w=3)
    sh.text((dx0 + 18, dy0 + 24), "notebook.ipynb", 12, CYAN, "lm")
    for k in range(4):
        y = dy0 + 66 + k * 74
        sh.text((dx0 + 16, y + 14), f"[{k + 1}]", 11, DIM, "lm")
        sh.rect(dx0 + 50, y, dx1 - 22, y + 56, outline=CYAN, fill=BG, w=1.5, r=4)
        for j, length in enumerate((0.7, 0.45) if k % 2 else (0.55, 0.8)):
            ly = y + 18 + j * 20
            sh.line([(dx0 + 62, ly), (dx0 + 62 + (dx1 - dx0 - 96) * length, ly)], INK, 2)
    tick(sh, (dx0 + 20, dy1 + 44), 36, GREEN, 5)
    sh.text((dx0 + 50, dy1 + 44), "SAVED", 15, GREEN, "lm")
    c, r = (860, 390), 235
    sh.dashed([(dx1 + 10, 410), (c[0] - r - 10, 410)], CYAN, 1.5, dash=6, gap=6)
    sh.circle(c, r, outline=INK, fill=PANEL, w=3.5)
    sh.text((c[0], c[1] - r + 40), "KERNEL", 16, INK, "mm")
    sh.text((c[0] - 150, c[1] - 120), "VARIABLES · OBJECTS", 11, DIM, "lm")
    sh.rect(c[0] - 175, c[1] - 100, c[0] + 175, c[1] - 58, outline=None, fill=GREY)
    sh.rect(c[0] - 175, c[1] - 30, c[0] - 20, c[1] + 90, outline=INK, fill=DARK, w=2)
    sh.text((c[0] - 97, c[1] + 104), "PROCESS MEMORY", 10, DIM, "mt")
    gpu_card(sh, (c[0] + 85, c[1] + 30), 150, 100, status=BLUE)
    sh.text((c[0] + 85, c[1] + 94), "GPU MEMORY", 10, DIM, "mt")
    # Things that take the kernel away.
    threats = [
        ((1300, 170), cross, "NODE FAILURE"),
        ((1370, 400), clock_icon, "TIMEOUT"),
        ((1300, 620), moon_icon, "IDLE CULL"),
    ]
    for p, glyph, name in threats:
        ang = math.atan2(p[1] - c[1], p[0] - c[0])
        edge = (c[0] + (r + 8) * math.cos(ang), c[1] + (r + 8) * math.sin(ang))
        near = (p[0] - 46 * math.cos(ang), p[1] - 46 * math.sin(ang))
        sh.dashed([near, edge], RED, 2.5, dash=10, gap=8)
        if glyph is cross:
            sh.circle(p, 30, outline=RED, fill=BG, w=3)
            cross(sh, p, 26, RED, 4)
        else:
            glyph(sh, p, 30, RED, 3)
        sh.text((p[0], p[1] + 48), name, 12, RED, "mt")
    brace(sh, (c[0] + r, c[1] + r + 18), (c[0] - r, c[1] + r + 18), 30, BLUE, 3)
    saved_icon(sh, (c[0], c[1] + r + 92), 50)
    sh.text((c[0] + 40, c[1] + r + 92), "CHECKPOINT", 15, BLUE, "lm")


def _rack(sh: Sheet) -> None:
    rx0, rx1, ry0, ry1 = 380, 640, 70, 830
    sh.rect(rx0 - 14, ry0, rx1 + 14, ry1, outline=INK, fill=PANEL, w=3.5)
    sh.line([(rx0 - 14, ry0 + 22), (rx1 + 14, ry0 + 22)], INK, 2)
    sh.line([(rx0 - 14, ry1 - 22), (rx1 + 14, ry1 - 22)], INK, 2)
    top, bot = ry0 + 34, ry1 - 34
    pitch = (bot - top) / 18
    failed = None
    for t in range(18):
        y0 = top + t * pitch + 3
        y1 = top + (t + 1) * pitch - 3
        sh.rect(rx0, y0, rx1, y1, outline=CYAN, fill=BG, w=1.5)
        for k in range(4):
            cx0 = rx0 + 10 + k * 60
            cx1 = cx0 + 50
            if (t, k) == (6, 2):
                sh.rect(cx0, y0 + 5, cx1, y1 - 5, outline=None, fill=RED)
                strike(sh, cx0, y0 + 5, cx1, y1 - 5, INK, 2.5)
                failed = (cx1, (y0 + y1) / 2)
            else:
                sh.rect(cx0, y0 + 5, cx1, y1 - 5, outline=GREY, fill=(60, 92, 140), w=1.5)
    brace(sh, (rx0 - 40, bot), (rx0 - 40, top), 32, INK, 2.5)
    sh.text((rx0 - 86, (top + bot) / 2 - 12), "72 GPUs", 16, INK, "rm")
    sh.text((rx0 - 86, (top + bot) / 2 + 12), "ONE NVLINK DOMAIN", 11, CYAN, "rm")
    sh.text((rx0 - 86, (top + bot) / 2 + 30), "18 TRAYS x 4", 11, CYAN, "rm")
    bx = 800
    sh.rect(bx, 300, 1460, 350, outline=None, fill=GREY)
    sh.text((bx + 12, 284), "71 HEALTHY GPUs WAIT FOR A RESTART", 13, GREY, "ls")
    sh.rect(bx, 470, bx + 58, 520, outline=None, fill=BLUE)
    saved_icon(sh, (bx + 116, 495), 54)
    sh.text((bx + 164, 485), "RESTORE FROM SAVED STATE", 13, BLUE, "lm")
    sh.text((bx + 164, 507), "SAME WAIT, FAR SHORTER", 11, CYAN, "lm")
    sh.line([(bx, 260), (bx, 560)], INK, 2)
    if failed:
        sh.dashed(
            [(rx1 + 18, failed[1]), (bx - 40, failed[1]), (bx - 40, 325), (bx - 6, 325)],
            RED,
            2,
            dash=8,
            gap=6,
        )


def _bar_chart_glyph(sh: Sheet, c: Point) -> None:
    x0, base = c[0] - 38, c[1] + 34
    sh.line([(x0 - 6, c[1] - 38), (x0 - 6, base), (c[0] + 44, base)], INK, 2)
    for k, h in enumerate((18, 30, 44, 64)):
        x = x0 + 4 + k * 20
        sh.rect(x, base - h, x + 13, base - 3, outline=None, fill=RED if k == 3 else INK)


def _thermometer_glyph(sh: Sheet, c: Point) -> None:
    sh.rect(c[0] - 9, c[1] - 42, c[0] + 9, c[1] + 18, outline=INK, fill=BG, w=2.5, r=9)
    sh.circle((c[0], c[1] + 28), 16, outline=INK, fill=BG, w=2.5)
    sh.circle((c[0], c[1] + 28), 10, outline=None, fill=RED)
    sh.rect(c[0] - 4, c[1] - 22, c[0] + 4, c[1] + 24, outline=None, fill=RED)
    for k in range(4):
        y = c[1] - 34 + k * 14
        sh.line([(c[0] + 14, y), (c[0] + 24, y)], INK, 1.5)


def _envelope_glyph(sh: Sheet, c: Point) -> None:
    x0, y0, x1, y1 = c[0] - 44, c[1] - 30, c[0] + 44, c[1] + 30
    sh.rect(x0, y0, x1, y1, outline=INK, fill=BG, w=2.5)
    sh.line([(x0, y0), (c[0], c[1] + 6), (x1, y0)], INK, 2.5)
    sh.line([(x0, y1), (c[0] - 14, c[1] - 4)], INK, 1.5)
    sh.line([(x1, y1), (c[0] + 14, c[1] - 4)], INK, 1.5)


def _scatter_glyph(sh: Sheet, c: Point) -> None:
    for dx, dy, s in ((-36, -30, 22), (8, -38, 18), (-14, 8, 20), (24, 14, 24)):
        sh.rect(c[0] + dx, c[1] + dy, c[0] + dx + s, c[1] + dy + s, outline=INK, fill=BG, w=2)


def _calendar_glyph(sh: Sheet, c: Point) -> None:
    x0, y0, x1, y1 = c[0] - 40, c[1] - 34, c[0] + 40, c[1] + 38
    sh.rect(x0, y0, x1, y1, outline=INK, fill=BG, w=2.5, r=4)
    sh.rect(x0, y0, x1, y0 + 16, outline=None, fill=INK)
    for x in (c[0] - 20, c[0] + 20):
        sh.line([(x, y0 - 10), (x, y0 + 6)], INK, 3)
    for r in range(3):
        for k in range(4):
            cx, cy = x0 + 14 + k * 17, y0 + 30 + r * 15
            sh.rect(
                cx - 4, cy - 4, cx + 4, cy + 4, outline=None, fill=CYAN if (r, k) != (1, 2) else INK
            )


def _fleet_signals(sh: Sheet) -> None:
    glyphs = [
        (_bar_chart_glyph, "GPU HEALTH"),
        (_thermometer_glyph, "THERMAL"),
        (_envelope_glyph, "RECLAIM NOTICE"),
        (_scatter_glyph, "FRAGMENTATION"),
        (_calendar_glyph, "MAINTENANCE"),
    ]
    ring, rr = (820, 430), 110
    for k, (glyph, name) in enumerate(glyphs):
        c = (300, 110 + k * 150)
        sh.rect(c[0] - 62, c[1] - 58, c[0] + 62, c[1] + 58, outline=CYAN, fill=BG, w=1.2)
        glyph(sh, c)
        sh.text((c[0] - 80, c[1]), name, 13, CYAN, "rm")
        ang = math.atan2(c[1] - ring[1], c[0] - ring[0])
        end = (ring[0] + (rr + 10) * math.cos(ang), ring[1] + (rr + 10) * math.sin(ang))
        start = (c[0] + 66, c[1])
        sh.dashed(
            bezier(start, (start[0] + 180, start[1]), (end[0] - 160, end[1]), end, 40), GREY, 2.5
        )
        sh.circle(end, 5, outline=None, fill=GREY)
    sh.circle(ring, rr, outline=BLUE, fill=BG, w=7)
    sh.circle(ring, rr - 16, outline=BLUE, w=1.5)
    saved_icon(sh, ring, 84)
    sh.text((ring[0], ring[1] + rr + 28), "POLICY · CHECKPOINT, THEN ACT", 13, BLUE, "mt")
    nx0, ny0, nx1, ny1 = 1140, 320, 1440, 540
    arrow(sh, [(ring[0] + rr + 6, ring[1]), (nx0 - 6, ring[1])], BLUE, 4.5, head=24)
    node_box(sh, nx0, ny0, nx1, ny1, "HEALTHY NODE")
    sh.rect(nx0 + 40, ny0 + 70, nx1 - 40, ny1 - 40, outline=None, fill=BLUE)
    sh.text(((nx0 + nx1) / 2, (ny0 + 70 + ny1 - 40) / 2), "WORKLOAD", 14, BG, "mm", bold=True)


def _failure_frequency(sh: Sheet) -> None:
    ox, oy, x1, y1 = 260, 720, 1300, 110
    decades = 4
    dx = (x1 - ox) / decades
    dy = (oy - y1) / decades
    for d in range(decades + 1):
        x = ox + d * dx
        y = oy - d * dy
        sh.line([(x, oy), (x, y1)], CYAN, 1.2)
        sh.line([(ox, y), (x1, y)], CYAN, 1.2)
        sh.text((x, oy + 18), ["10", "100", "1K", "10K", "100K"][d], 12, CYAN, "mt")
        sh.text((ox - 16, y), ["1", "10", "100", "1K", "10K"][d], 12, CYAN, "rm")
        if d < decades:
            for m in range(2, 10):
                f = math.log10(m)
                sh.line([(x + f * dx, oy), (x + f * dx, oy + 8)], INK, 1.2)
                sh.line([(ox, y - f * dy), (ox - 8, y - f * dy)], INK, 1.2)
    sh.line([(ox, y1 - 20), (ox, oy), (x1 + 20, oy)], INK, 3)
    arrowhead(sh, (x1 + 34, oy), (x1, oy), INK, 16)
    arrowhead(sh, (ox, y1 - 34), (ox, y1), INK, 16)
    sh.text(((ox + x1) / 2, oy + 46), "GPUs IN THE JOB (LOG)", 13, INK, "mt")
    sh.text((ox + 14, y1 - 32), "HOURS BETWEEN INTERRUPTIONS (LOG)", 13, INK, "ls")
    a, b = (ox + 40, y1 + 40), (x1 - 30, oy - 40)
    sh.line([a, b], INK, 3.5)
    pts = [_lerp(a, b, t) for t in (0.16, 0.36, 0.64, 0.86)]
    sh.dashed([(ox, pts[1][1]), (x1, pts[1][1])], GREY, 2.5, dash=14, gap=10)
    for k, p in enumerate(pts):
        if k < 2:
            sh.circle(p, 14, outline=BG, fill=BLUE, w=3)
        else:
            sh.circle(p, 15, outline=BLUE, fill=BG, w=3, dashed=True)
    sh.circle(pts[3], 34, outline=RED, w=3)
    sh.text((pts[0][0] + 26, pts[0][1] - 22), "MEASURED", 12, BLUE, "ls")
    sh.text((pts[2][0] + 26, pts[2][1] - 22), "PROJECTED", 12, BLUE, "ls")
    sh.text((pts[3][0] - 40, pts[3][1] + 40), "LARGEST FLEET", 12, RED, "rt")


def _serving_stall(sh: Sheet) -> None:
    rng = random.Random("vllm-requests")  # noqa: S311 - layout jitter, not security
    cy = 300
    placed: list[Point] = []
    while len(placed) < 9:
        p = (rng.uniform(100, 215), rng.uniform(cy - 90, cy + 90))
        if all(math.dist(p, q) > 34 for q in placed):
            placed.append(p)
            sh.circle(p, 11, outline=INK, fill=BG, w=2.5)
    sh.text((150, cy + 130), "REQUESTS", 12, CYAN, "mt")
    ax0, ax1 = 300, 480
    arrow(sh, [(225, cy), (ax0 - 8, cy)], INK, 3, head=16)
    sh.rect(ax0, cy - 90, ax1, cy + 90, outline=INK, fill=PANEL, w=3, r=6)
    sh.text(((ax0 + ax1) / 2, cy - 64), "API SERVER", 13, INK, "mm")
    for k in range(3):
        sh.circle((ax0 + 50 + k * 40, cy + 16), 12, outline=INK, fill=BG, w=2.5)
    ex0, ex1 = 580, 800
    arrow(sh, [(ax1 + 6, cy), (ex0 - 8, cy)], INK, 3, head=16)
    sh.rect(ex0, cy - 90, ex1, cy + 90, outline=INK, fill=PANEL, w=3, r=6)
    sh.text(((ex0 + ex1) / 2, cy - 64), "ENGINE LOOP", 13, INK, "mm")
    reset_arrow(sh, ((ex0 + ex1) / 2, cy + 18), 38, INK, 4)
    wx0 = 910
    arrow(sh, [(ex1 + 6, cy), (wx0 - 10, cy)], INK, 3, head=16)
    sh.text((wx0, cy - 112), "GPU WORKERS", 13, INK, "lm")
    for k in range(8):
        row, col = divmod(k, 4)
        x0 = wx0 + col * 110
        y0 = cy - 88 + row * 96
        if k == 5:
            sh.rect(x0, y0, x0 + 86, y0 + 80, outline=RED, fill=RED_PALE, w=3, dashed=True)
        else:
            sh.rect(x0, y0, x0 + 86, y0 + 80, outline=INK, fill=BG, w=2.5)
            sh.rect(x0 + 12, y0 + 56, x0 + 74, y0 + 66, outline=None, fill=BLUE)
    # The heartbeat timeline.
    ty, tx0, hang = 650, 120, 1080
    sh.line([(tx0, ty), (hang, ty)], INK, 2.5)
    sh.dashed([(hang, ty), (1440, ty)], GREY, 2.5)
    marks = [tx0 + 40 + k * 70 for k in range(13)]
    for x in marks:
        sh.line([(x, ty - 22), (x, ty + 22)], BLUE, 4)
    last = marks[-1]
    sh.rect(hang - 6, ty - 50, hang + 6, ty + 50, outline=None, fill=RED)
    sh.text((hang + 18, ty - 38), "HANG", 14, RED, "lm")
    sh.text((hang + 18, ty - 16), "NO CRASH, NO EXIT", 11, RED, "lm")
    sh.circle((last, ty), 30, outline=BLUE, w=2.5)
    saved_icon(sh, (last, ty - 96), 50)
    sh.line([(last, ty - 70), (last, ty - 32)], BLUE, 2)
    sh.text((tx0, ty + 44), "HEARTBEATS", 12, BLUE, "lm")
    sh.text((last - 40, ty - 96), "LAST GOOD STATE", 12, BLUE, "rm")


def _job_node(sh: Sheet, c: Point, job: str | None) -> tuple[float, float, float, float]:
    """A small node holding a job block: 'blue', 'red' (struck, draining) or None (empty)."""
    x0, y0, x1, y1 = c[0] - 70, c[1] - 56, c[0] + 70, c[1] + 56
    node_box(sh, x0, y0, x1, y1, "NODE", w=2.5)
    jx0, jy0, jx1, jy1 = x0 + 22, y0 + 40, x1 - 22, y1 - 16
    if job == "blue":
        sh.rect(jx0, jy0, jx1, jy1, outline=None, fill=BLUE)
        sh.text(((jx0 + jx1) / 2, (jy0 + jy1) / 2), "JOB", 13, BG, "mm", bold=True)
    elif job == "red":
        sh.rect(jx0, jy0, jx1, jy1, outline=None, fill=RED)
        strike(sh, jx0, jy0, jx1, jy1, INK, 3)
    else:
        sh.rect(jx0, jy0, jx1, jy1, outline=DIM, w=2, dashed=True)
    return x0, y0, x1, y1


def _drain_marks(sh: Sheet, box: tuple[float, float, float, float], color: Color) -> None:
    x0, _y0, x1, y1 = box
    for k in range(3):
        x = x0 + 40 + k * 30
        arrow(sh, [(x, y1 + 6), (x, y1 + 34)], color, 2, head=9)


def _dcgm(sh: Sheet) -> None:
    xs = [210, 450, 690, 930, 1170, 1410]
    rows = (250, 580)
    sh.text((90, rows[0] - 120), "A · DRAIN FIRST", 14, INK, "lm")
    sh.text((90, rows[1] - 120), "B · CHECKPOINT FIRST", 14, BLUE, "lm")
    sh.line([(90, (rows[0] + rows[1]) / 2 - 10), (1500, (rows[0] + rows[1]) / 2 - 10)], DIM, 1)

    def step_arrow(xa: float, xb: float, y: float) -> None:
        arrow(sh, [(xa + 84, y), (xb - 84, y)], CYAN, 2.5, head=14)

    # Row A: warning, cordon, the job dies as the node drains, reset.
    y = rows[0]
    warning_triangle(sh, (xs[0], y), 84)
    cordon(sh, (xs[3], y), 110)
    box = _job_node(sh, (xs[4], y), "red")
    _drain_marks(sh, box, RED)
    reset_arrow(sh, (xs[5], y), 34)
    for a, b in ((0, 3), (3, 4), (4, 5)):
        step_arrow(xs[a], xs[b], y)
    # Row B: warning, checkpoint, job safe on a healthy node, cordon, drain the empty node, reset.
    y = rows[1]
    warning_triangle(sh, (xs[0], y), 84)
    saved_icon(sh, (xs[1], y), 70)
    _job_node(sh, (xs[2], y), "blue")
    sh.text((xs[2], y + 76), "HEALTHY NODE", 11, CYAN, "mt")
    cordon(sh, (xs[3], y), 110)
    box = _job_node(sh, (xs[4], y), None)
    _drain_marks(sh, box, DIM)
    reset_arrow(sh, (xs[5], y), 34)
    for a in range(5):
        step_arrow(xs[a], xs[a + 1], y)
    for x, name in zip(xs, ("ALERT", "SAVE", "MOVE", "CORDON", "DRAIN", "RESET"), strict=True):
        sh.text((x, rows[1] - 96), name, 11, DIM, "mm")


def _prediction(sh: Sheet) -> None:
    slug = "is-it-worth-acting-on-gpu-failure-prediction"
    wrong = set(random.Random(slug).sample(range(100), 16))  # noqa: S311 - layout only
    gx0, gy0, pitch = 150, 180, 50
    for k in range(100):
        r, col = divmod(k, 10)
        p = (gx0 + col * pitch, gy0 + r * pitch)
        sh.circle(p, 11, outline=None, fill=RED if k in wrong else GREY)
    sh.rect(gx0 - 34, gy0 - 34, gx0 + 9 * pitch + 34, gy0 + 9 * pitch + 34, outline=CYAN, w=1.5)
    sh.text((gx0 - 34, gy0 - 50), "100 PREDICTED FAILURES", 13, CYAN, "ls")
    sh.text((gx0 - 34, gy0 + 9 * pitch + 62), "16 WRONG · 84 RIGHT", 13, RED, "lt")
    base = 760
    sh.line([(base, 220), (base, 620)], INK, 3)
    sh.rect(base, 280, 1370, 350, outline=None, fill=GREY)
    cross(sh, (1416, 315), 46, RED, 7)
    sh.text((base + 14, 262), "EACH WRONG CALL TODAY: DRAIN, REQUEUE, LOST WORK", 13, GREY, "ls")
    sh.rect(base, 500, base + 92, 570, outline=None, fill=BLUE)
    saved_icon(sh, (base + 46, 452), 56)
    sh.text((base + 120, 520), "WHEN ACTING MEANS A RESTORE", 13, BLUE, "lm")
    sh.text((base + 120, 544), "CHECKPOINT, MOVE, CARRY ON", 11, CYAN, "lm")


def _training_bus(sh: Sheet) -> None:
    bx0, bx1, by = 90, 1250, 240
    sh.rect(bx0, by - 14, bx1, by + 14, outline=INK, fill=PANEL, w=3)
    sh.text((bx0, by - 30), "INTERCONNECT", 12, CYAN, "ls")
    lost = 5
    pitch = 140
    for k in range(8):
        cx = 170 + k * pitch
        if k == lost:
            sh.dashed([(cx, by + 14), (cx, by + 70)], RED, 4, dash=8, gap=7)
            gpu_card(
                sh,
                (cx + 40, 560),
                100,
                132,
                color=RED,
                status=None,
                angle=17,
                dashed=True,
                struck=RED,
            )
            continue
        sh.line([(cx, by + 14), (cx, by + 56)], INK, 4)
        gpu_card(sh, (cx, by + 56 + 66), 100, 132, status=GREY)
    sh.text((170 + lost * pitch + 110, 655), "XID FAULT · RANK LOST", 12, RED, "lt")
    icon = (640, 110)
    saved_icon(sh, icon, 60)
    sh.text((icon[0] + 46, icon[1]), "CHECKPOINT", 14, BLUE, "lm")
    b2x0, b2x1, b2y = 1120, 1470, 590
    sh.rect(b2x0, b2y - 12, b2x1, b2y + 12, outline=INK, fill=PANEL, w=3)
    cx = 1330
    sh.line([(cx, b2y + 12), (cx, b2y + 40)], INK, 4)
    gpu_card(sh, (cx, b2y + 40 + 58), 90, 116, status=BLUE)
    sh.text((b2x0, b2y - 28), "REPLACEMENT NODE", 12, BLUE, "ls")
    curve = bezier((icon[0] + 34, icon[1] - 20), (1200, 20), (1470, 260), (cx + 4, b2y - 20), 60)
    arrow(sh, curve, BLUE, 3, head=18, dashed=True)


def _ring_group(sh: Sheet) -> None:
    c, r = (800, 420), 260
    sh.circle(c, r + 95, outline=BLUE, w=6)
    gp = _rotate((c[0] + r + 95, c[1]), c, -40)
    sh.line([gp, (c[0] + r + 140, gp[1]), (c[0] + r + 140 + 10, gp[1])], BLUE, 1.5)
    sh.text((c[0] + r + 156, gp[1]), "ONE TRAINING GROUP", 13, BLUE, "lm")
    sh.dashed(arc_points(c, r, 0, 360, 180), INK, 3, dash=16, gap=12)
    failed = 3
    for k in range(16):
        a = -90 + k * 22.5
        p = (c[0] + r * math.cos(math.radians(a)), c[1] + r * math.sin(math.radians(a)))
        sh.dashed([_lerp(c, p, 0.32), _lerp(c, p, 0.8)], DIM, 1.2, dash=5, gap=6)
        x0, y0, x1, y1 = p[0] - 34, p[1] - 24, p[0] + 34, p[1] + 24
        if k == failed:
            sh.rect(x0, y0, x1, y1, outline=None, fill=RED)
            strike(sh, x0, y0, x1, y1, INK, 3)
        else:
            sh.rect(x0, y0, x1, y1, outline=INK, fill=BG, w=2.5)
            sh.rect(x0 + 10, y1 - 14, x1 - 10, y1 - 8, outline=None, fill=GREY)
            sh.text((p[0], p[1] - 6), f"{k}", 11, CYAN, "mm")
    sh.circle(c, 74, outline=INK, fill=PANEL, w=3)
    sh.text((c[0], c[1] - 32), "ALL-REDUCE", 11, INK, "mm")
    cross(sh, (c[0], c[1] + 8), 60, RED, 6)
    fp = (
        c[0] + r * math.cos(math.radians(-90 + failed * 22.5)),
        c[1] + r * math.sin(math.radians(-90 + failed * 22.5)),
    )
    lx = c[0] + r + 150
    sh.line([(fp[0] + 40, fp[1]), (lx - 10, fp[1])], RED, 1.5)
    sh.text((lx, fp[1] - 10), "RANK 3 LOST", 13, RED, "lm")
    sh.text((lx, fp[1] + 10), "THE OTHERS WAIT, THEN TIME OUT", 11, RED, "lm")


def _restart_points(sh: Sheet) -> None:
    tx0, tx1, ty0, ty1 = 110, 1490, 500, 540
    cut = 1060
    sh.rect(tx0, ty0, tx1, ty1, outline=INK, fill=BG, w=3)
    sh.rect(tx0 + 3, ty0 + 3, cut, ty1 - 3, outline=None, fill=BLUE)
    for k in range(1, 28):
        x = tx0 + k * 50
        sh.line([(x, ty1), (x, ty1 + (12 if k % 5 == 0 else 6))], CYAN, 1.5)
    top = (cut, ty0 - 70)
    sh.line([top, (cut, ty1 + 40)], RED, 6)
    sh.text((cut + 12, ty1 + 46), "NODE DIES", 13, RED, "lt")
    marks = [tx0 + 70 + k * 125 for k in range(7)]
    for x in marks:
        sh.line([(x, ty0 - 8), (x, ty0 - 30)], BLUE, 4)
    sh.text((marks[0] - 10, ty0 - 44), "HEARTBEATS", 11, BLUE, "ls")
    doc_x = 470
    document_icon(sh, doc_x - 32, 300, doc_x + 32, 382, GREY, fold=18, fill=BG, w=2.5, ruled=True)
    sh.line([(doc_x, 382), (doc_x, ty0 - 4)], GREY, 2)
    sh.text((doc_x, 286), "LAST SAVED CHECKPOINT", 12, GREY, "ms")
    # Where each framework picks up again.
    start = bezier((cut, ty1 + 40), (cut - 220, 830), (tx0 + 220, 830), (tx0 + 6, ty1 + 10), 80)
    sh.dashed(start, GREY, 2.5)
    arrowhead(sh, start[-1], start[-7], GREY, 16)
    sh.text((560, 778), "RESTART FROM STEP ZERO", 12, GREY, "mt")
    to_doc = bezier(top, (cut, 170), (doc_x + 260, 170), (doc_x + 40, 326), 64)
    sh.dashed(to_doc, GREY, 2.5)
    arrowhead(sh, to_doc[-1], to_doc[-5], GREY, 16)
    lane_y0, lane_y1 = 170, 200
    lane_x0 = 1200
    sh.rect(lane_x0, lane_y0, tx1, lane_y1, outline=GREY, fill=GREY, w=2)
    sh.text((tx1, lane_y0 - 14), "SURVIVING REPLICAS CARRY ON", 12, GREY, "rs")
    lane = bezier(
        top,
        (cut + 20, 260),
        (lane_x0 - 90, (lane_y0 + lane_y1) / 2),
        (lane_x0 - 8, (lane_y0 + lane_y1) / 2),
        40,
    )
    sh.dashed(lane, GREY, 2.5)
    arrowhead(sh, lane[-1], lane[-4], GREY, 16)
    last = marks[-1]
    hop = bezier(
        (cut - 6, ty0 - 30), (cut - 30, ty0 - 110), (last + 30, ty0 - 110), (last, ty0 - 36), 30
    )
    arrow(sh, hop, BLUE, 3.5, head=15)
    sh.text((last - 16, ty0 - 92), "PROCESS STATE", 12, BLUE, "rs")


DRAWINGS: dict[str, tuple[Callable[[Sheet], None], str]] = {
    "era-of-stateful-inference": (_stateful_inference, "STATEFUL INFERENCE"),
    "frontier-restart-error-budget": (_error_budget, "RESTART VS ERROR BUDGET"),
    "recovery-time-you-can-put-in-a-filing": (_filing, "RECOVERY TIME OF RECORD"),
    "node-dies-under-jupyter-session": (_jupyter, "NOTEBOOK KERNEL STATE"),
    "one-gpu-fails-71-healthy-gpus-wait": (_rack, "NVL72 RACK · ONE FAULT"),
    "five-fleet-signals-five-policies": (_fleet_signals, "FLEET SIGNALS TO POLICY"),
    "gpu-failure-frequency-scales-with-fleet": (_failure_frequency, "INTERRUPTIONS VS FLEET"),
    "vllm-sglang-stops-responding": (_serving_stall, "SERVING ENGINE STALL"),
    "dcgm-flags-gpu-with-running-job": (_dcgm, "DCGM ALERT RUNBOOK"),
    "is-it-worth-acting-on-gpu-failure-prediction": (_prediction, "PREDICTION COST"),
    "training-job-when-a-gpu-fails": (_training_bus, "TRAINING JOB · GPU LOST"),
    "one-node-failed-whole-training-job-died": (_ring_group, "COLLECTIVE · ONE RANK DOWN"),
    "torchrun-torchft-ray-train-restart": (_restart_points, "RESTART POINTS"),
}


def draw(slug: str, width: int = 1600, height: int = 900) -> Image.Image:
    """The blueprint illustration for a demo post; unknown slugs get a generated one."""
    if slug not in DRAWINGS:
        return draw_generated(zlib.crc32(slug.encode("utf-8")), width, height)
    painter, title = DRAWINGS[slug]
    sh = Sheet(width, height)
    grid(sh)
    inner = frame(sh)
    painter(sh)
    title_block(sh, inner, title, f"CDN-{zlib.crc32(slug.encode('utf-8')) % 10000:04d}")
    return sh.finish()


# ----------------------------------------------------------------------------------------------
# Synthetic compositions for benchmark posts


def _gen_cards(sh: Sheet, rng: random.Random) -> None:
    cols, rows = rng.choice(((4, 2), (5, 2), (3, 2), (4, 3)))
    w = min(760 / cols - 24, 180)
    h = min(480 / rows - 40, w * 0.72)
    bad = rng.randrange(cols * rows)
    node_box(
        sh,
        110,
        120,
        150 + cols * (w + 24),
        170 + rows * (h + 40),
        f"NODE {rng.randrange(1, 64):02d}",
    )
    for k in range(cols * rows):
        r, c = divmod(k, cols)
        cx, cy = 140 + w / 2 + c * (w + 24), 190 + h / 2 + r * (h + 40)
        if k == bad:
            gpu_card(sh, (cx, cy), w, h, RED, None, dashed=True, struck=RED)
        else:
            gpu_card(sh, (cx, cy), w, h, status=GREY)
    spare = (1290, 520)
    gpu_card(sh, spare, 170, 120, status=BLUE)
    saved_icon(sh, (1290, 220), 64)
    arrow(
        sh, bezier((1290, 260), (1290, 360), (1290, 380), (1290, 452), 16), BLUE, 3, 16, dashed=True
    )


def _gen_ring(sh: Sheet, rng: random.Random) -> None:
    n = rng.choice((8, 12, 16))
    c, r = (560 + rng.randrange(0, 200), 420), 250
    sh.circle(c, r + 80, outline=BLUE, w=5)
    sh.dashed(arc_points(c, r, 0, 360, 120), INK, 3, dash=16, gap=12)
    bad = rng.randrange(n)
    for k in range(n):
        a = math.radians(k * 360 / n - 90)
        p = (c[0] + r * math.cos(a), c[1] + r * math.sin(a))
        if k == bad:
            sh.rect(p[0] - 30, p[1] - 22, p[0] + 30, p[1] + 22, outline=None, fill=RED)
            strike(sh, p[0] - 30, p[1] - 22, p[0] + 30, p[1] + 22, INK, 3)
        else:
            sh.rect(p[0] - 30, p[1] - 22, p[0] + 30, p[1] + 22, outline=INK, fill=BG, w=2.5)
            sh.rect(p[0] - 20, p[1] + 8, p[0] + 20, p[1] + 14, outline=None, fill=GREY)
    sh.circle(c, 64, outline=INK, fill=PANEL, w=3)
    saved_icon(sh, c, 56)


def _gen_bars(sh: Sheet, rng: random.Random) -> None:
    base = 220
    sh.line([(base, 150), (base, 680)], INK, 3)
    n = rng.randint(3, 5)
    pitch = 500 / n
    blue = rng.randrange(n)
    for k in range(n):
        y = 170 + k * pitch
        if k == blue:
            sh.rect(base, y, base + rng.uniform(50, 140), y + pitch * 0.5, outline=None, fill=BLUE)
            saved_icon(sh, (base + 220, y + pitch * 0.25), 50)
        else:
            length = rng.uniform(500, 1150)
            sh.rect(base, y, base + length, y + pitch * 0.5, outline=None, fill=GREY)
            if rng.random() < 0.4:
                cross(sh, (base + length + 40, y + pitch * 0.25), 34, RED, 6)
    dimension(sh, base, base + 1000, 720, f"{rng.randrange(5, 60)} MIN", CYAN)


def _gen_chart(sh: Sheet, rng: random.Random) -> None:
    ox, oy, x1, y1 = 200, 690, 1360, 150
    for k in range(1, 5):
        sh.line([(ox + k * (x1 - ox) / 4, oy), (ox + k * (x1 - ox) / 4, y1)], CYAN, 1)
        sh.line([(ox, oy - k * (oy - y1) / 4), (x1, oy - k * (oy - y1) / 4)], CYAN, 1)
    sh.line([(ox, y1 - 20), (ox, oy), (x1 + 20, oy)], INK, 3)
    pts = []
    y = rng.uniform(250, 550)
    for k in range(12):
        y = min(640, max(180, y + rng.uniform(-90, 90)))
        pts.append((ox + 40 + k * 100, y))
    sh.line(pts, BLUE, 4)
    for p in pts[::3]:
        sh.circle(p, 9, outline=BG, fill=BLUE, w=2)
    worst = max(pts, key=lambda p: p[1])
    sh.circle(worst, 22, outline=RED, w=3)
    sh.dashed([(ox, pts[0][1]), (x1, pts[0][1])], GREY, 2)


GENERATORS = (_gen_cards, _gen_ring, _gen_bars, _gen_chart)


def draw_generated(seed: int, width: int = 1600, height: int = 900) -> Image.Image:
    """A quick blueprint composition for synthetic posts; the same seed draws the same image."""
    rng = random.Random(seed)  # noqa: S311 - deterministic layout, not security
    sh = Sheet(width, height)
    grid(sh)
    inner = frame(sh)
    GENERATORS[rng.randrange(len(GENERATORS))](sh, rng)
    title_block(sh, inner, f"SYNTHETIC FIGURE {seed % 100000}", f"GEN-{seed % 10000:04d}")
    return sh.finish()
