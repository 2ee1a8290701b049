"""A small picture of a run: one bar per round, coloured by outcome, drawn offscreen with Qt."""

from __future__ import annotations

import math

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPen

from app.export.summary import OUTCOME_WORDS, RunSummary
from app.export.markdown import format_duration
from app.export.words import tr
from app.core.run.outcomes import RoundResult

# Okabe–Ito: distinguishable with the common colour-vision deficiencies and in greyscale
# by lightness; the legend names each colour so nothing relies on colour alone.
OUTCOME_COLOURS: dict[str, str] = {
    RoundResult.COMPLETED: "#009E73",     # bluish green
    RoundResult.NEEDS_HUMAN: "#E69F00",   # orange
    RoundResult.GAVE_UP: "#D55E00",       # vermillion
    RoundResult.STEP_LIMIT: "#CC79A7",    # reddish purple
    RoundResult.TIMEOUT: "#0072B2",       # blue
    RoundResult.ENGINE_ERROR: "#000000",  # black
    RoundResult.NO_ACTION: "#999999",     # grey
    RoundResult.CANCELLED: "#56B4E9",     # sky blue
    RoundResult.SAMPLE: "#F0E442",        # yellow: shown as a sample, not done
}
INK = QColor("#1f2933")
GRID = QColor("#d9dee3")
MUTED = QColor("#52606d")


def _nice_step(top: float, ticks: int = 4) -> float:
    """A round tick step (1, 2, 2.5, 5 x 10^n) so the axis reads at a glance."""
    if top <= 0:
        return 1.0
    raw = top / ticks
    base = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * base:
            return m * base
    return 10 * base


def _value(row, metric: str) -> float:
    if metric == "cost":
        return row.cost_usd
    return row.duration_s or 0.0


def _unit(top: float, metric: str, lang: str = "en") -> tuple[float, str]:
    """Divisor and unit name for the y axis: whole seconds, minutes or hours, never mixed."""
    if metric == "cost":
        return 1.0, "$"
    if top >= 2 * 3600:
        return 3600.0, tr(lang, "h")
    if top >= 120:
        return 60.0, tr(lang, "min")
    return 1.0, tr(lang, "s")


def _number(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return text or "0"


def _tick_label(value: float, metric: str, unit: tuple[float, str]) -> str:
    if metric == "cost":
        text = _number(value)
        return "$" + (text + "0" if "." in text and len(text.split(".")[1]) == 1 else text)
    return "0" if value == 0 else f"{_number(value / unit[0])} {unit[1]}"


def _bar_label(value: float, metric: str, lang: str = "en") -> str:
    if metric == "cost":
        return f"${value:.2f}" if value >= 0.01 or value == 0 else f"${value:.3f}"
    if value < 10:  # the Demo engine's rounds take milliseconds; "under 1 s" says nothing
        return tr(lang, "{s} s", s=f"{value:.2g}")
    return format_duration(value, lang)


CHART_SIZE = (640, 240)  # logical size, CSS pixels: the text width of an A4 or Letter page


def chart_metric(summary: RunSummary) -> str:
    """Cost when the run cost money, else time taken."""
    spent = sum(r.cost_usd for r in summary.rounds if r.recorded)
    return "cost" if summary.is_ai and spent > 0 else "duration"


def draw_chart(painter: QPainter, summary: RunSummary, target: QRectF,
               metric: str | None = None, families: list[str] | None = None) -> None:
    """Paint the chart into `target` on any device: an image, or the PDF as vectors."""
    width, height = CHART_SIZE
    painter.save()
    try:
        painter.translate(target.topLeft())
        painter.scale(target.width() / width, target.height() / height)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.fillRect(QRectF(0, 0, width, height), QColor("white"))
        rows = [r for r in summary.rounds if r.recorded]
        _draw(painter, rows, metric or chart_metric(summary), width, height, families or [],
              summary.lang)
    finally:
        painter.restore()


def render_chart(summary: RunSummary, metric: str | None = None, scale: float = 3.0,
                 families: list[str] | None = None) -> bytes:
    """PNG bytes of the chart, drawn at `scale` times its logical size to stay sharp."""
    width, height = CHART_SIZE
    image = QImage(int(width * scale), int(height * scale), QImage.Format.Format_RGB32)
    image.setDevicePixelRatio(scale)
    p = QPainter(image)
    try:
        draw_chart(p, summary, QRectF(0, 0, width, height), metric, families)
    finally:
        p.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6 takes the format as str at run time (bytes raise ValueError); its stub says bytes.
    image.save(buf, "PNG")  # type: ignore[call-overload]
    buf.close()
    return bytes(data.data())


def _font(families: list[str], points: float, bold: bool = False) -> QFont:
    f = QFont()
    if families:
        f.setFamilies(families)
    # Pixels, not points: the painter may be scaled onto a 1200 dpi PDF, where points would
    # be converted at the device's resolution and come out at the wrong size.
    f.setPixelSize(round(points * 96 / 72))
    f.setBold(bold)
    f.setFeature(QFont.Tag("liga"), 0)  # keeps "fi" as two letters in the PDF's text
    return f


def _draw(p: QPainter, rows, metric: str, width: int, height: int, families: list[str],
          lang: str = "en") -> None:
    title_f, label_f, small_f = (_font(families, 9.5, True), _font(families, 8),
                                 _font(families, 7.5))
    p.setFont(title_f)
    p.setPen(INK)
    what = tr(lang, "cost" if metric == "cost" else "time taken")
    p.drawText(QRectF(0, 4, width, 20), Qt.AlignmentFlag.AlignLeft |
               Qt.AlignmentFlag.AlignVCenter,
               tr(lang, "Rounds of this run — bar height: {what}", what=what))

    fm = QFontMetricsF(small_f)
    present = [s for s in OUTCOME_COLOURS if any(r.result_state == s for r in rows)]
    # Lay the legend out first: it wraps onto a second line when many outcomes occur.
    legend: list[tuple[float, int, str]] = []
    x, line = 0.0, 0
    for state in present:
        w = 15 + fm.horizontalAdvance(tr(lang, OUTCOME_WORDS.get(state, state))) + 18
        if x and x + w > width - 80:
            x, line = 0.0, line + 1
        legend.append((x, line, state))
        x += w
    legend_h = 20.0 * (line + 1) if present else 0.0

    values = [_value(r, metric) for r in rows] or [0.0]
    peak = max(values)
    unit = _unit(peak, metric, lang)
    step = _nice_step(peak / unit[0] if peak > 0 else 1.0) * unit[0]
    top_value = step * max(1, math.ceil(peak / step)) if peak > 0 else step * 4
    n_ticks = round(top_value / step)
    ticks = [_tick_label(i * step, metric, unit) for i in range(n_ticks + 1)]

    left = 10.0 + max(fm.horizontalAdvance(t) for t in ticks)
    right, top = 8.0, 34.0
    bottom = 36.0 + legend_h
    plot = QRectF(left, top, width - left - right, height - top - bottom)

    if not rows:
        p.setFont(label_f)
        p.setPen(MUTED)
        p.drawText(plot, Qt.AlignmentFlag.AlignCenter, tr(lang, "No rounds were recorded."))
        return

    # Grid and y labels first, so bars sit on top of the lines.
    p.setFont(small_f)
    for i, text in enumerate(ticks):
        y = plot.bottom() - plot.height() * i * step / top_value
        p.setPen(QPen(GRID, 0.8))
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
        p.setPen(MUTED)
        p.drawText(QRectF(0, y - 8, left - 8, 16), Qt.AlignmentFlag.AlignRight |
                   Qt.AlignmentFlag.AlignVCenter, text)
    p.setPen(QPen(INK, 1.2))
    p.drawLine(plot.bottomLeft(), plot.bottomRight())

    slot = plot.width() / len(rows)
    bar_w = max(2.0, min(48.0, slot * 0.7))
    # Label every round when there is room, else every k-th, always the first and last.
    every = max(1, math.ceil(fm.horizontalAdvance("888") * 1.6 / slot))
    for i, (row, v) in enumerate(zip(rows, values)):
        cx = plot.left() + slot * (i + 0.5)
        h = plot.height() * v / top_value
        h = max(h, 2.0)  # an instant round still shows up as a sliver
        colour = QColor(OUTCOME_COLOURS.get(row.result_state, "#777777"))
        p.fillRect(QRectF(cx - bar_w / 2, plot.bottom() - h, bar_w, h), colour)
        label = _bar_label(v, metric, lang)
        if fm.horizontalAdvance(label) + 4 < slot:  # the value on top, when there is room
            p.setPen(INK)
            p.drawText(QRectF(cx - slot / 2, plot.bottom() - h - 16, slot, 15),
                       Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom, label)
        # The last round is labelled too, unless that would crowd the label before it.
        if i % every == 0 or (i == len(rows) - 1 and (i % every) * 2 > every):
            p.setPen(MUTED)
            p.drawText(QRectF(cx - 20, plot.bottom() + 3, 40, 16),
                       Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                       str(row.round))

    p.setFont(label_f)
    p.setPen(INK)
    p.drawText(QRectF(plot.left(), plot.bottom() + 17, plot.width(), 16),
               Qt.AlignmentFlag.AlignHCenter, tr(lang, "Round"))

    # Legend: only the outcomes that occur, in a fixed order so documents compare easily.
    p.setFont(small_f)
    for lx, ln, state in legend:
        text = tr(lang, OUTCOME_WORDS.get(state, state))
        x, y = plot.left() + lx, height - legend_h + 20.0 * ln
        p.fillRect(QRectF(x, y + 3, 11, 11), QColor(OUTCOME_COLOURS[state]))
        p.setPen(INK)
        p.drawText(QRectF(x + 15, y, fm.horizontalAdvance(text) + 4, 17),
                   Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
