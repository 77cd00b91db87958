"""Small bar charts as inline SVG, drawn in Python at build time.

No chart library and nothing fetched: each chart is an ``<svg>`` element placed in the
page. Colours come from CSS classes (``docs/stylesheets/extra.css``), so the charts follow
the light and dark palettes; text uses ``currentColor``. The numbers are written next to
the bars, so a chart can be read without colour and by a screen reader (every chart has
a ``<title>`` and an ``aria-label``).

The drawing is sized for a column of about 360 CSS pixels (a phone, or one of two
columns on a desktop), where the SVG's units are close to pixels.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

WIDTH = 360
FONT = 12
ROW = 24
BAR = 15
CHAR = 6.6  # approximate width of a character at FONT, for laying out labels


def _e(text: str) -> str:
    return html.escape(str(text), quote=True)


@dataclass(frozen=True)
class Segment:
    value: float
    css: str
    tip: str = ""


@dataclass(frozen=True)
class Bar:
    """One row: a label, stacked segments (left to right) and the text after the bar."""

    label: str
    segments: tuple[Segment, ...]
    text: str = ""
    href: str | None = None

    @property
    def total(self) -> float:
        return sum(s.value for s in self.segments)


@dataclass(frozen=True)
class Legend:
    items: Sequence[tuple[str, str]] = field(default_factory=tuple)  # (css class, label)


def _svg(height: float, label: str, body: list[str]) -> str:
    return (
        f'<svg class="sw-svg" viewBox="0 0 {WIDTH} {height:.0f}" role="img" '
        f'aria-label="{_e(label)}" xmlns="http://www.w3.org/2000/svg" '
        f'font-size="{FONT}">'
        f"<title>{_e(label)}</title>" + "".join(body) + "</svg>"
    )


def hbar_chart(
    label: str, bars: Sequence[Bar], *, maximum: float | None = None, text_width: int = 78
) -> str:
    """Horizontal bars, one per row, scaled to ``maximum`` (default: the largest bar)."""
    longest = max((len(b.label) for b in bars), default=4)
    label_w = min(140.0, max(28.0, longest * CHAR)) + 6
    left = label_w
    span = WIDTH - left - text_width
    top = 4
    height = top + ROW * len(bars) + 2
    scale_max = maximum if maximum is not None else max((b.total for b in bars), default=1.0)
    scale_max = scale_max or 1.0
    body: list[str] = [
        f'<line class="sw-axis" x1="{left:.1f}" y1="{top}" x2="{left:.1f}" y2="{height - 2:.1f}"/>'
    ]
    for i, bar in enumerate(bars):
        y = top + i * ROW
        mid = y + ROW / 2
        name = f'<text class="sw-label" x="{left - 6:.1f}" y="{mid + 4:.1f}" text-anchor="end">'
        name += f"{_e(bar.label)}</text>"
        if bar.href:
            name = f'<a href="{_e(bar.href)}">{name}</a>'
        body.append(name)
        x = left
        for seg in bar.segments:
            w = max(0.0, span * seg.value / scale_max)
            if w <= 0:
                continue
            tip = f"<title>{_e(seg.tip)}</title>" if seg.tip else ""
            body.append(
                f'<rect class="{_e(seg.css)}" x="{x:.1f}" y="{mid - BAR / 2:.1f}" '
                f'width="{max(w, 1.0):.1f}" height="{BAR}" rx="2">{tip}</rect>'
            )
            x += w
        if bar.text:
            body.append(
                f'<text class="sw-value" x="{x + 5:.1f}" y="{mid + 4:.1f}">{_e(bar.text)}</text>'
            )
    return _svg(height, label, body)


def column_chart(label: str, counts: Mapping[int, int], *, css: str = "sw-bar") -> str:
    """A histogram: one column per integer value (every value from the smallest to the
    largest, empty ones included), labelled below at a readable spacing."""
    if not counts:
        return _svg(20, label, [])
    lo, hi = min(counts), max(counts)
    values = list(range(lo, hi + 1))
    peak = max(counts.values()) or 1
    left, right, top, bottom = 34.0, 8.0, 16.0, 22.0
    height = 150.0
    plot_h = height - top - bottom
    step = (WIDTH - left - right) / len(values)
    body = [
        f'<line class="sw-axis" x1="{left}" y1="{height - bottom}" x2="{WIDTH - right}" '
        f'y2="{height - bottom}"/>',
        f'<text class="sw-tick" x="{left - 4}" y="{top + 4}" text-anchor="end">{peak}</text>',
        f'<text class="sw-tick" x="{left - 4}" y="{height - bottom}" text-anchor="end">0</text>',
    ]
    every = max(1, round(len(values) / 10 + 0.49))
    for i, v in enumerate(values):
        n = counts.get(v, 0)
        h = plot_h * n / peak
        x = left + i * step
        if n:
            body.append(
                f'<rect class="{_e(css)}" x="{x + step * 0.12:.1f}" '
                f'y="{height - bottom - h:.1f}" width="{step * 0.76:.1f}" height="{h:.1f}">'
                f"<title>{v}: {n}</title></rect>"
            )
        if (v - lo) % every == 0 or v == hi:
            body.append(
                f'<text class="sw-tick" x="{x + step / 2:.1f}" y="{height - 6}" '
                f'text-anchor="middle">{v}</text>'
            )
    return _svg(height, label, body)


def legend_html(legend: Legend) -> str:
    items = "".join(
        f'<span class="sw-key"><svg viewBox="0 0 10 10" width="10" height="10" aria-hidden="true">'
        f'<rect class="{_e(css)}" width="10" height="10" rx="2"/></svg>{_e(text)}</span>'
        for css, text in legend.items
    )
    return f'<p class="sw-legend">{items}</p>'


def figure(caption: str, svg: str, note: str = "", legend: Legend | None = None) -> str:
    """A chart with its caption, as one raw HTML block (no blank lines inside, so
    Markdown leaves it alone)."""
    parts = ['<figure class="sw-chart">', f"<figcaption>{_e(caption)}</figcaption>", svg]
    if legend is not None and legend.items:
        parts.append(legend_html(legend))
    if note:
        parts.append(f'<p class="sw-note">{_e(note)}</p>')
    parts.append("</figure>")
    return "".join(parts)


def grid(figures: Sequence[str]) -> str:
    """Charts side by side where there is room (two columns on a desktop, one on a phone)."""
    return '<div class="sw-charts">' + "".join(figures) + "</div>"
