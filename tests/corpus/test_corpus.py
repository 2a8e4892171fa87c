"""The frontend corpus runs before lowering, after lowering and as blocks (issue 10, D18).

Every program of ``tests/corpus/programs`` (ONNX -> linalg through iree-import-onnx, see
``generate.py``) is run on its recorded inputs:

* as imported (the upstream interpreter) — against onnxruntime's recorded output;
* after ``pto-lower{level=tile}`` and after ``pto-lower`` (block level) — against the same
  output, by the case's compare class (``corpus.assert_matches``), and bit for bit against
  the unlowered run where the case is ``exact`` (D18);
* a program that lowers completely also assembles (``-t pto-asm``) and has no leftovers;
  one that does not is refused by ``-t pto-asm`` with one diagnostic per leftover (D19).
  :data:`FULLY_LOWERED` pins which programs lower completely today, so progress and
  regressions both show up here.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from corpus import CASES, assert_matches

from interpreter.ssa.runner import build_context, parse_module_text, run
from passes.lowering.leftovers import NotFullyLoweredError, find_leftovers
from passes.pto_assign_registers import PTOAssignRegistersPass
from passes.pto_form_blocks import PTOFormBlocksPass
from passes.pto_lower import PTOLowerPass
from passes.pto_targets import print_asm

FULLY_LOWERED = frozenset(
    """
    abs_f32 abs_i32 add_bcast_row_f32 add_const_f32 add_f16 add_f32 add_i16 add_i32 add_i64
    cast_f16_to_f32 cast_f32_to_bf16 cast_f32_to_f16 cast_f32_to_i32 cast_i16_to_i32
    cast_i32_to_f32 ceil_f32 div_bcast_row_i64 div_const_f32 div_f16 div_f32 div_i16 div_i32
    div_i64 exp_f32 floor_f32 gemm_bias_transb0_f32 gemm_bias_transb1_1xk_f32
    gemm_bias_transb1_f32 layernorm_f32 leakyrelu_f32 log_f32 matmul_1xk_bf16 matmul_1xk_f16
    matmul_1xk_f32 matmul_3d_f32 matmul_batched_f32 matmul_k50_f32 matmul_mxk_bf16
    matmul_mxk_f16 matmul_mxk_f32 matmulinteger_1xk_i8 matmulinteger_mxk_i8 max_bcast_row_f32
    max_f16 max_f32 max_i16 max_i32 max_i64 min_const_f32 min_f16 min_f32 min_i16 min_i32
    min_i64 mlp_1xk_f16 mlp_f32 model_dwsep_conv_f32 model_matmulinteger_zp_i8
    model_qlinearmatmul_u8 model_resnet_block_f16 mod_fmod0_bcast_row_i32 mod_fmod0_i16 mod_fmod0_i32
    mod_fmod0_i64 mod_fmod1_f16 mod_fmod1_f32 mod_fmod1_i16 mod_fmod1_i32 mod_fmod1_i64
    mul_bcast_scalar_f16 mul_const_i16 mul_f16 mul_f32 mul_i16 mul_i32 mul_i64 neg_f32 neg_i16
    reciprocal_f32 reducemax_f32 reducesum_f32 reducesum_i32 relu_f16 relu_f32 sigmoid_f32
    softmax_f32 sqrt_f32 sub_bcast_col_i32 sub_f16 sub_f32 sub_i16 sub_i32 sub_i64 tanh_f32
    erf_f32
    model_mlp_gelu_erf_f32 model_mlp_gelu_tanh_f32 model_mlp_silu_f32 model_llama_mlp_f32
    model_llama_mlp_f16 model_l2_normalize_f32 model_encoder_block_f32
    model_decoder_attention_rope_f32 model_embedding_classifier_f32 model_topk_head_f32
    model_cnn_f32 model_dynamic_quant_linear_f32 model_gru_cell_f32 model_gru_onnx_f32
    model_lstm_cell_f32 model_lstm_onnx_f32 model_softmax_xent_f32
    """.split()
)
"""Corpus programs that lower completely today (the others say why: D19)."""

AWAITING: dict[str, str] = {}
"""Corpus programs that cannot run yet, with the reason (strict: they turn red once they can)."""

IDS = [c.name for c in CASES]
PARAMS = [
    pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=AWAITING[c.name]))
    if c.name in AWAITING else c
    for c in CASES
]


def _lower(case, level: str):
    """The case lowered to ``level``, not verified here: ``run`` verifies what it runs."""
    module = parse_module_text(case.text())
    PTOLowerPass(level=level).apply(build_context(), module)
    return module


def _blocks_of(tile):
    """The block-level program of a tile-level one: what ``pto-lower`` (level=block) runs
    after the tile level (``pto-form-blocks``, ``pto-assign-registers``) on the tile-level
    program it keeps. Lowering each case once instead of twice halves this file's cost;
    ``test_block_level_is_the_tile_level_bundled`` pins the equivalence."""
    blocks = tile.clone()
    ctx = build_context()
    PTOFormBlocksPass().apply(ctx, blocks)
    PTOAssignRegistersPass().apply(ctx, blocks)
    return blocks


EQUIVALENCE_CASES = ("add_f32", "matmul_k50_f32", "softmax_f32", "model_llama_mlp_f16",
                     "model_mlp_silu_f32", "model_topk_head_f32")
"""Cheap cases of several families (element-wise, CUBE, reduction, whole models)."""


@pytest.mark.parametrize("name", EQUIVALENCE_CASES)
def test_block_level_is_the_tile_level_bundled(name):
    """``pto-lower`` at block level prints exactly what bundling and register assignment of
    its tile-level program print (checked for all 112 programs when this was introduced), so
    the corpus runs below lower each program once."""
    (case,) = [c for c in CASES if c.name == name]
    assert str(_lower(case, "block")) == str(_blocks_of(_lower(case, "tile")))


def test_corpus_is_complete():
    """The manifest, the programs and the data agree; the corpus stays small."""
    import os

    from corpus import DATA, PROGRAMS

    names = {c.name for c in CASES}
    assert {f[:-5] for f in os.listdir(PROGRAMS)} == names
    assert {f[:-4] for f in os.listdir(DATA)} == names
    size = sum(
        os.path.getsize(os.path.join(d, f)) for d in (DATA, PROGRAMS) for f in os.listdir(d)
    )
    assert size < 3_000_000
    assert FULLY_LOWERED <= names


@functools.cache
def _run_unlowered(case):
    """The program as imported, run once per case (both tests below compare against it)."""
    (got,) = run(case.text(), "main", *case.inputs())
    got = np.asarray(got)
    got.setflags(write=False)
    return got


@pytest.mark.parametrize("case", PARAMS, ids=IDS)
def test_runs_before_lowering(case):
    assert_matches(case, _run_unlowered(case), what="(as imported)")


@pytest.mark.parametrize("case", PARAMS, ids=IDS)
def test_runs_after_lowering_and_as_blocks(case):
    inputs = case.inputs()
    before = _run_unlowered(case)
    tile = _lower(case, "tile")
    blocks = _blocks_of(tile)
    (got_tile,) = run(tile, "main", *inputs)
    assert_matches(case, got_tile, what="(tile level)")
    (got_blocks,) = run(blocks, "main", *inputs)
    assert_matches(case, got_blocks, what="(blocks)")
    if case.compare == "exact":
        assert_matches(case, got_tile, want=before, what="(tile vs unlowered, D18)")
    left = find_leftovers(blocks)
    if case.name in FULLY_LOWERED:
        assert not left, [x.diagnostic() for x in left]
        asm = print_asm(blocks)
        assert "B.START" in asm or "BSTART" in asm.upper()
    else:
        assert left, f"{case.name} now lowers completely: add it to FULLY_LOWERED"
        with pytest.raises(NotFullyLoweredError) as err:
            print_asm(blocks)
        lines = str(err.value).splitlines()
        assert len(lines) == 1 + len(left)  # one diagnostic per leftover op (D19)
