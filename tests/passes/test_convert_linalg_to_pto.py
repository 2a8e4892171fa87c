"""convert-linalg-to-pto: which linalg programs become pto.gemv / pto.floor_mod.

Recognition is exact about meaning (PTO-SPEC 4, 5; D1, D2, D6-D8, D15): what matches
becomes one tensor-level op, a near miss is left unchanged (compared as printed text).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lowering_helpers import apply, floor_mod_program, gemv_program, parse
from xdsl.utils.exceptions import PassFailedException

from passes.convert_linalg_to_pto import ConvertLinalgToPtoPass
from pto_dialect.tensor_ops import FloorModOp, GemvOp


def ops_of(module, cls):
    return [o for o in module.walk() if isinstance(o, cls)]


MX_TYPES = ["f16", "bf16", "f8E4M3FN", "f8E5M2", "f4E2M1FN"]


@pytest.mark.parametrize("a_elt", MX_TYPES)
@pytest.mark.parametrize("b_elt", MX_TYPES)
def test_d2_every_mx_type_pair_is_recognised(a_elt, b_elt):
    """D2: AType and BType in the MX set, possibly different; scales exactly on 8/4-bit sides."""
    m = apply(ConvertLinalgToPtoPass(), parse(gemv_program(70, 9, a_elt, b_elt)))
    (g,) = ops_of(m, GemvOp)
    assert (g.a_scale is not None) == (a_elt not in ("f16", "bf16"))
    assert (g.b_scale is not None) == (b_elt not in ("f16", "bf16"))
    assert g.bias is None and not g.has_relu


@pytest.mark.parametrize("out_elt", ["f32", "f16", "bf16"])
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("relu", [False, True])
def test_pto_spec_3_3_epilogue_folds_into_one_op(out_elt, bias, relu):
    """Bias (D3), ReLU (ReluMode 1) and the F322F16/F322BF16 conversion fold into pto.gemv."""
    m = apply(
        ConvertLinalgToPtoPass(),
        parse(gemv_program(40, 6, "f8E4M3FN", "f16", bias=bias, relu=relu, out_elt=out_elt)),
    )
    (g,) = ops_of(m, GemvOp)
    assert (g.bias is not None) == bias and g.has_relu == relu
    assert g.out_dtype.ir == out_elt
    # Only the dead zero fill and tensor.empty ops remain of the linalg program.
    assert not [o for o in m.walk() if o.name == "linalg.generic"]


def test_d15_a2a3_recognises_no_mx_gemv():
    text = gemv_program(64, 8, "f8E4M3FN", "f16")
    m = apply(ConvertLinalgToPtoPass(target="a2a3"), parse(text))
    assert not ops_of(m, GemvOp)
    assert str(m) == str(parse(text))


def test_d15_a2a3_recognises_fp16_gemv_for_the_ordinary_forms():
    m = apply(ConvertLinalgToPtoPass(target="a2a3"), parse(gemv_program(64, 8, "f16", "f16")))
    assert len(ops_of(m, GemvOp)) == 1


def test_d15_module_target_attribute_is_read():
    text = '"builtin.module"() ({\n' + gemv_program(64, 8, "f8E5M2", "f8E5M2") + '}) {"pto.target" = #pto.target<a2a3>} : () -> ()'
    m = apply(ConvertLinalgToPtoPass(), parse(text))
    assert not ops_of(m, GemvOp)


def test_unknown_target_is_a_clear_error():
    with pytest.raises((PassFailedException, ValueError), match="unknown target 'a9'"):
        apply(ConvertLinalgToPtoPass(target="a9"), parse(gemv_program(8, 8, "f16", "f16")))


KINDS = {
    "signed": (["i32", "i16"], "signed"),
    "unsigned": (["i32", "i16"], "unsigned"),
    "float": (["f32", "f16", "bf16"], None),
}


@settings(max_examples=60, deadline=None)
@given(
    shape=st.lists(st.integers(1, 9), min_size=1, max_size=3).map(tuple),
    kind=st.sampled_from(sorted(KINDS)),
    data=st.data(),
)
def test_d6_floor_mod_idiom_recognised_for_the_default_types(shape, kind, data):
    """Every D6 type and rank: one pto.floor_mod with the idiom's signedness."""
    elt = data.draw(st.sampled_from(KINDS[kind][0]))
    m = apply(ConvertLinalgToPtoPass(), parse(floor_mod_program(shape, elt, kind)))
    (fm,) = ops_of(m, FloorModOp)
    assert fm.signedness_kind == KINDS[kind][1]
    assert fm.lhs.type.get_shape() == shape


@pytest.mark.parametrize(
    "elt,kind", [("f64", "float"), ("i64", "signed"), ("i8", "unsigned"), ("i8", "signed")]
)
def test_d6_revised_wider_types_are_recognised(elt, kind):
    """D6 revised: f64, i64 and i8 are in TREM's ASL set, so the idiom lowers."""
    text = floor_mod_program((4, 3), elt, kind)
    m = apply(ConvertLinalgToPtoPass(), parse(text))
    assert len(ops_of(m, FloorModOp)) == 1


@pytest.mark.parametrize(
    "old,new",
    [
        ("%nz = arith.cmpi ne, %r, %z", "%nz = arith.cmpi eq, %r, %z"),  # wrong predicate
        ("%bn = arith.cmpi slt, %y, %z", "%bn = arith.cmpi sle, %y, %z"),  # other predicate
        ("%bn = arith.cmpi slt, %y, %z", "%bn = arith.cmpi slt, %x, %z"),  # dividend's sign
        ("%sum = arith.addi %r, %y", "%sum = arith.addi %r, %x"),  # adds the dividend
        ("%fix = arith.andi %nz, %s", "%fix = arith.ori %nz, %s"),  # or instead of and
    ],
)
def test_d8_near_misses_of_the_signed_idiom_are_left_unchanged(old, new):
    text = floor_mod_program((6,), "i32", "signed")
    assert old in text
    bad = text.replace(old, new)
    m = apply(ConvertLinalgToPtoPass(), parse(bad))
    assert str(m) == str(parse(bad))


def test_d8_unsigned_remainder_in_the_signed_idiom_is_not_the_idiom():
    """``remui`` in the signed idiom's body is not signed floor modulo: it lowers op by op
    (the unsigned TREM, then the fix-up's compares and selects, TCMP + TSEL) and computes
    what the unlowered body computes."""
    import numpy as np

    from interpreter.ssa.runner import run

    bad = floor_mod_program((6,), "i32", "signed").replace("arith.remsi %x, %y", "arith.remui %x, %y")
    m = apply(ConvertLinalgToPtoPass(), parse(bad))
    text = str(m)
    assert "pto.floor_mod unsigned" in text and "pto.floor_mod signed" not in text
    assert "linalg.generic" not in text
    a = np.array([7, -7, 7, -7, -2**31, 2**31 - 1], dtype=np.int32)
    b = np.array([3, 3, -3, -3, 5, -1], dtype=np.int32)
    np.testing.assert_array_equal(run(m, "f", a, b)[0], run(parse(bad), "f", a, b)[0])


def _matmul_text(a: str, b: str, out: str, m: int = 1) -> str:
    return f"""func.func @f(%a: tensor<{m}x8x{a}>, %b: tensor<8x4x{b}>, %c: tensor<{m}x4x{out}>) -> tensor<{m}x4x{out}> {{
  %r = linalg.matmul ins(%a, %b : tensor<{m}x8x{a}>, tensor<8x4x{b}>) outs(%c : tensor<{m}x4x{out}>) -> tensor<{m}x4x{out}>
  return %r : tensor<{m}x4x{out}>
}}
"""


@pytest.mark.parametrize("m", [1, 3])
@pytest.mark.parametrize(
    "a, b, out", [("f32", "f32", "f32"), ("f32", "f16", "f32"), ("i8", "i8", "i32"), ("i16", "i8", "i32")]
)
def test_ordinary_cube_pairs_lower(a, b, out, m):
    """Ordinary TGEMV/TMATMUL pairs (PTO-SPEC 1): FP32 x FP32, one float class, S8/S16 -> S32.
    An integer accumulator takes no bias (D3): its init accumulates through pto.matmul."""
    text = apply(ConvertLinalgToPtoPass(), parse(_matmul_text(a, b, out, m))).__str__()
    gemv = m == 1 and out == "f32"
    assert ("pto.gemv" if gemv else "pto.matmul") in text
    assert "linalg.matmul" not in text


@pytest.mark.parametrize(
    "a, b, out",
    [("i8", "f16", "f32"), ("f32", "f32", "f16"), ("i8", "i8", "f32"), ("f8E4M3FN", "f8E4M3FN", "f32")],
)
def test_illegal_cube_pairs_are_left_unchanged(a, b, out):
    """Mixed classes, a result that is not the accumulator, unscaled FP8 (D2) stay."""
    text = _matmul_text(a, b, out)
    m = apply(ConvertLinalgToPtoPass(), parse(text))
    assert str(m) == str(parse(text))


def test_d1_scale_with_wrong_shape_is_left_unchanged():
    """A scale tensor longer than ceil(K/32) is not TGEMV's scale operand (D1)."""
    text = gemv_program(64, 8, "f8E4M3FN", "f16").replace(
        "tensor<2xf8E8M0FNU>", "tensor<3xf8E8M0FNU>"
    )
    m = apply(ConvertLinalgToPtoPass(), parse(text))
    assert not ops_of(m, GemvOp)
