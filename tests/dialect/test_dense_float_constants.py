"""Dense float constants are bit patterns when written in hex (issue 23, item 1).

``dense<0xFF800000> : tensor<f32>`` is MLIR's spelling of f32 -inf (torch-mlir writes attention
masks so); xDSL 0.75 read it as the integer 4286578688. Checked against the bit patterns
themselves: parse -> stored bytes, print -> parse -> the same bytes, and the value both engines
of ``pto-run`` return, for every float type (f16, bf16, f32, f64, f8, f6, f4), scalar splats,
lists and nested lists, NaN payloads (signalling and quiet), -0, infinities and subnormals.
"""

from __future__ import annotations

from io import StringIO

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import arith
from xdsl.printer import Printer

from interpreter.ssa.runner import RunError, parse_module_text, run
from tests.budget import examples

WIDTH = {
    "f16": 16, "bf16": 16, "f32": 32, "f64": 64,
    "f8E5M2": 8, "f8E4M3": 8, "f8E4M3FN": 8, "f8E5M2FNUZ": 8, "f8E4M3FNUZ": 8,
    "f8E4M3B11FNUZ": 8, "f8E3M4": 8, "f8E8M0FNU": 8,
    "f6E2M3FN": 6, "f6E3M2FN": 6, "f4E2M1FN": 4,
}  # fmt: skip

# Hand-picked special patterns: (type, bits, what it is).
SPECIALS = [
    ("f32", 0xFF800000, "-inf"),
    ("f32", 0x7F800000, "+inf"),
    ("f32", 0x7F800001, "signalling NaN"),
    ("f32", 0xFFC00123, "negative quiet NaN with payload"),
    ("f32", 0x80000000, "-0"),
    ("f32", 0x00000001, "smallest subnormal"),
    ("f16", 0xFC00, "-inf"),
    ("f16", 0x7C01, "signalling NaN"),
    ("f16", 0x7E55, "quiet NaN with payload"),
    ("f16", 0x8000, "-0"),
    ("f16", 0x0001, "smallest subnormal"),
    ("bf16", 0xFF80, "-inf"),
    ("bf16", 0x7F81, "signalling NaN"),
    ("bf16", 0x8001, "negative subnormal"),
    ("f64", 0xFFF0000000000000, "-inf"),
    ("f64", 0x7FF0000000000001, "signalling NaN"),
    ("f64", 0x8000000000000000, "-0"),
    ("f8E5M2", 0xFC, "-inf"),
    ("f8E5M2", 0x7D, "signalling NaN"),
    ("f8E4M3FN", 0x7F, "NaN"),
    ("f8E4M3FN", 0x80, "-0"),
    ("f8E8M0FNU", 0xFF, "NaN"),
    ("f6E2M3FN", 0x3F, "-7.5"),
    ("f4E2M1FN", 0xF, "-6"),
    ("f4E2M1FN", 0x8, "-0"),
]


def _hex(bits: int, width: int) -> str:
    return f"0x{bits:0{max(1, (width + 3) // 4)}X}"


def _constant(text: str) -> arith.ConstantOp:
    module = parse_module_text(f"%c = arith.constant {text}")
    op = next(o for o in module.walk() if isinstance(o, arith.ConstantOp))
    return op


def _stored(op: arith.ConstantOp, elt: str) -> list[int]:
    size = 8 if WIDTH[elt] == 64 else max(1, WIDTH[elt] // 8)
    raw = op.value.data.data  # type: ignore[attr-defined]
    return [int.from_bytes(raw[i : i + size], "little") for i in range(0, len(raw), size)]


def _printed(op: arith.ConstantOp) -> str:
    out = StringIO()
    Printer(stream=out).print_attribute(op.value)
    return out.getvalue()


def _round_trip(text: str, elt: str) -> tuple[list[int], list[int], str]:
    op = _constant(text)
    printed = _printed(op)
    again = _constant(printed)
    return _stored(op, elt), _stored(again, elt), printed


def _as_bits(a: np.ndarray) -> list[int]:
    a = np.ascontiguousarray(a)
    return [int(v) for v in a.view(f"u{a.dtype.itemsize}").ravel()]


@pytest.mark.parametrize(("elt", "bits", "what"), SPECIALS)
def test_special_patterns_parse_print_run(elt: str, bits: int, what: str) -> None:
    width = WIDTH[elt]
    h = _hex(bits, width)
    # splat, list (with a decimal neighbour), nested list
    for text, n in (
        (f"dense<{h}> : tensor<3x{elt}>", 3),
        (f"dense<[{h}, 0.0, {h}]> : tensor<3x{elt}>", 3),
        (f"dense<[[{h}], [{h}]]> : tensor<2x1x{elt}>", 2),
    ):
        first, again, printed = _round_trip(text, elt)
        assert first[0] == bits, (what, text, [hex(b) for b in first])
        assert first == again, (what, text, printed)
        assert len(first) == n
    # a 0-d splat through both engines of pto-run
    prog = f"""func.func @f() -> tensor<{elt}> {{
  %c = arith.constant dense<{h}> : tensor<{elt}>
  return %c : tensor<{elt}>
}}"""
    (got,) = run(prog, "f", engine="both")
    assert _as_bits(got) == [bits], what


def test_issue_example_values() -> None:
    prog = """func.func @f() -> (tensor<f32>, tensor<2xf32>, tensor<f16>) {
  %0 = arith.constant dense<0xFF800000> : tensor<f32>
  %1 = arith.constant dense<[0xFF800000, 1.5]> : tensor<2xf32>
  %2 = arith.constant dense<0xFC00> : tensor<f16>
  return %0, %1, %2 : tensor<f32>, tensor<2xf32>, tensor<f16>
}"""
    a, b, c = run(prog, "f", engine="both")
    assert a == -np.inf and list(b) == [-np.inf, 1.5] and c == -np.inf


def test_splat_is_decided_by_bits() -> None:
    # +0 and -0 are equal values but different constants; a NaN splat is a splat.
    first, again, printed = _round_trip("dense<[0.0, -0.0]> : tensor<2xf32>", "f32")
    assert first == again == [0, 0x80000000]
    assert printed.startswith("dense<[")
    first, again, printed = _round_trip("dense<[0x7FC00001, 0x7FC00001]> : tensor<2xf32>", "f32")
    assert first == again == [0x7FC00001] * 2
    assert printed.startswith("dense<0x7FC00001>")


def test_decimal_elements_unchanged() -> None:
    first, again, _ = _round_trip("dense<[1.5, -2.0, 0.1]> : tensor<3xf16>", "f16")
    assert first == again == [0x3E00, 0xC000, 0x2E66]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("dense<-0xFF800000> : tensor<f32>", "leading minus"),
        ("dense<[0x1FFFF]> : tensor<1xf16>", "out of range"),
        ("dense<0x10> : tensor<f4E2M1FN>", "out of range"),
    ],
)
def test_bad_hex_is_a_parse_error(text: str, message: str) -> None:
    with pytest.raises(RunError, match=message):
        _constant(text)


@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_random_bit_patterns_round_trip(data: st.DataObject) -> None:
    elt = data.draw(st.sampled_from(sorted(WIDTH)))
    width = WIDTH[elt]
    shape = data.draw(st.sampled_from([(1,), (3,), (2, 2), (2, 1, 2)]))
    n = int(np.prod(shape))
    bits = data.draw(st.lists(st.integers(0, (1 << width) - 1), min_size=n, max_size=n))

    def nest(flat: list[str], dims: tuple[int, ...]) -> str:
        if len(dims) == 1:
            return "[" + ", ".join(flat) + "]"
        k = len(flat) // dims[0]
        return "[" + ", ".join(nest(flat[i * k : (i + 1) * k], dims[1:]) for i in range(dims[0])) + "]"

    t = f"tensor<{'x'.join(map(str, shape))}x{elt}>"
    first, again, printed = _round_trip(f"dense<{nest([_hex(b, width) for b in bits], shape)}> : {t}", elt)
    assert first == bits
    assert again == bits, printed
