"""Points are written as a reader writes them (``30½``), the same text for the same
number whatever its type, and the same on every call (the texts are remembered)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from schwimmen.spec.present import points


def _read(text: str) -> Fraction:
    return Fraction(text.replace("½", "")) + (Fraction(1, 2) if text.endswith("½") else 0)


@given(st.integers(min_value=0, max_value=200))
def test_a_half_reads_back_as_its_number_of_every_type(halves: int) -> None:
    exact = Fraction(halves, 2)
    texts = {points(exact), points(halves / 2), points(float(halves / 2))}
    if halves % 2 == 0:
        texts.add(points(halves // 2))
    assert len(texts) == 1
    (text,) = texts
    assert _read(text) == exact
    assert points(halves / 2) == text  # remembered: the same text again
