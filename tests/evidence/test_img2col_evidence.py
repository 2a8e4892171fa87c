"""Evidence for TIMG2COL (``pto_dialect/tile_rearrange.py`` TImg2ColOp, kernel
``interpreter/kernels/rearrange.py`` ``timg2col``; ``asl/tile/model/execution/image-to-column.asl``,
``asl/tile/model/legality/image-to-column.asl``; D9, D12, D16).

The reference is INDEPENDENT of the kernel: the ASL's loop nest written out on Python lists
(scalar ``//`` and ``%`` per destination element, the output extents recomputed from the
padded input), against the kernel's vectorised index arithmetic, over a hypothesis space of
small descriptors, windows and definedness patterns. The op runs at tile level (both
engines); its block form is refused with the reason (docs/rearrange.md).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_binary_evidence import _bundled as bundled

from interpreter import kernels, run
from interpreter.kernels.storage import storage_dtype
from pto_dialect.datatypes import TileDataType
from pto_dialect.faults import PTOFault
from pto_dialect.feature_map import FeatureMap
from pto_dialect.tile_rearrange import IMG2COL_TYPES

T = TileDataType


def _ref(flat: list, defined: list, f: dict, pos_m: int, pos_k: int, vr: int, vc: int, pad):
    """The ASL ``TIMG2COL`` loop nest on lists (``None``: a referenced element is undefined)."""
    def extent(size, lo, hi, k, dil, stride):
        padded, field = size + lo + hi, dil * (k - 1) + 1
        return 0 if padded < field else (padded - field) // stride + 1

    oh = extent(f["height"], f["pad_top"], f["pad_bottom"], f["filter_height"],
                f["dilation_height"], f["stride_height"])  # fmt: skip
    ow = extent(f["width"], f["pad_left"], f["pad_right"], f["filter_width"],
                f["dilation_width"], f["stride_width"])  # fmt: skip
    c0 = f["channels_per_group"]
    out = []
    for row in range(vr):
        m = pos_m + row
        batch, rem = m // (f["depth"] * oh * ow), m % (f["depth"] * oh * ow)
        depth, rem = rem // (oh * ow), rem % (oh * ow)
        oy, ox = rem // ow, rem % ow
        line = []
        for col in range(vc):
            k = pos_k + col
            group, rem = k // (f["filter_height"] * f["filter_width"] * c0), k % (
                f["filter_height"] * f["filter_width"] * c0)
            ky, rem = rem // (f["filter_width"] * c0), rem % (f["filter_width"] * c0)
            kx, ch = rem // c0, rem % c0
            iy = oy * f["stride_height"] + ky * f["dilation_height"] - f["pad_top"]
            ix = ox * f["stride_width"] + kx * f["dilation_width"] - f["pad_left"]
            value = pad
            if group * c0 + ch < f["logical_channels"] and 0 <= iy < f["height"] and 0 <= ix < f["width"]:
                i = ((((batch * f["depth"] + depth) * f["channel_groups"] + group) * f["height"]
                      + iy) * f["width"] + ix) * c0 + ch  # fmt: skip
                if not defined[i]:
                    return None
                value = flat[i]
            line.append(value)
        out.append(line)
    return out


@st.composite
def _cases(draw):
    nd = draw(st.booleans())
    f = {"batches": draw(st.integers(1, 2)), "depth": draw(st.integers(1, 2)) if nd else 1,
         "channel_groups": draw(st.integers(1, 2)), "height": draw(st.integers(1, 4)),
         "width": draw(st.integers(1, 4)), "channels_per_group": draw(st.integers(1, 3))}  # fmt: skip
    for k in ("filter_height", "filter_width"):
        f[k] = draw(st.integers(1, 3))
    for k in ("stride_height", "stride_width", "dilation_height", "dilation_width"):
        f[k] = draw(st.integers(1, 2))
    for k in ("pad_left", "pad_right", "pad_top", "pad_bottom"):
        f[k] = draw(st.integers(0, 2))
    f["logical_channels"] = draw(st.integers(1, f["channel_groups"] * f["channels_per_group"]))
    f["padding"] = draw(st.integers(-(1 << 63), (1 << 64) - 1))
    fm = FeatureMap(layout=int(nd), **f)
    lr, lk = fm.logical_shape()
    assume(lr > 0 and lk > 0)
    pos_m, pos_k = draw(st.integers(0, lr - 1)), draw(st.integers(0, lk - 1))
    vr, vc = draw(st.integers(1, lr - pos_m)), draw(st.integers(1, lk - pos_k))
    n = fm.physical_elements()
    cols = draw(st.sampled_from([4, 8]))
    rows = -(-n // cols) + draw(st.integers(0, 1))
    undefined = draw(st.lists(st.integers(0, rows * cols - 1), max_size=2))
    return fm, f, (pos_m, pos_k, vr, vc), (rows, cols), undefined


@settings(max_examples=80, deadline=None)
@given(_cases(), st.integers(0, 2**32 - 1))
def test_kernel_matches_the_asl_loops(case, seed):
    """Every window of every small descriptor (both layouts, padding, stride, dilation,
    unassigned channels, posM/posK) gives the loop nest's raw elements; a referenced undefined
    element faults TileLegality, an unreferenced one does not."""
    fm, f, (pos_m, pos_k, vr, vc), shape, undefined = case
    rng = np.random.default_rng(seed)
    payload = rng.integers(0, 1 << 16, size=shape, dtype=np.uint16)
    dfn = np.ones(shape, bool)
    dfn.reshape(-1)[undefined] = False
    pad = fm.padding & 0xFFFF
    want = _ref(payload.reshape(-1).tolist(), dfn.reshape(-1).tolist(), f, pos_m, pos_k, vr, vc, pad)
    call = kernels.KERNELS["TIMG2COL"]
    params = (*fm, pos_m + (1 << 16) * int(rng.integers(0, 3)), pos_k)  # low 16 bits count
    if want is None:
        with pytest.raises(PTOFault, match="is undefined") as e:
            call([payload], [T.U16], T.U16, (vr, vc), params=params, defined=[dfn])
        assert e.value.kind == "TileLegality"
        return
    got = call([payload], [T.U16], T.U16, (vr, vc), params=params, defined=[dfn])
    assert got.dtype == np.uint16 and got.tolist() == want


def test_window_outside_the_matrix_faults():
    """posM + valid rows beyond N*D*outH*outW (or posK + valid columns beyond
    C1*filterH*filterW*C0) is TileLegality before any effect (AVS IMG2COL-RANGE-001)."""
    fm = FeatureMap(height=2, width=2, filter_height=2, filter_width=2)  # a 1x4 matrix
    payload, dfn = np.zeros((1, 4), np.uint8), np.ones((1, 4), bool)
    for (m, k, vr, vc), name in (((1, 0, 1, 1), r"pos_m: 1 \+ 1"), ((0, 1, 1, 4), r"pos_k: 1 \+ 4")):
        with pytest.raises(PTOFault, match=name):
            kernels.KERNELS["TIMG2COL"]([payload], [T.U8], T.U8, (vr, vc), params=(*fm, m, k),
                                        defined=[dfn])  # fmt: skip


def _text(t: TileDataType, fmap: str, src: str, dst: str, params: bool = False) -> str:
    ins = f"%s: {src}" + (", %m: i64, %k: i64" if params else "")
    ops, types = ("%s, %m, %k", f"{src}, i64, i64") if params else ("%s", src)
    return (f"func.func @f({ins}) -> {dst} {{\n  %d = pto.timg2col {ops} {{fmap = {fmap}}} : "
            f"({types}) -> {dst}\n  func.return %d : {dst}\n}}")  # fmt: skip


@pytest.mark.parametrize("t", sorted(IMG2COL_TYPES, key=lambda t: t.value), ids=lambda t: t.name)
def test_every_type_at_tile_level(t):
    """Each type of ``TileImg2ColDataTypeSupported`` moves raw bits and pads with the low
    element-width bits of the padding word (no conversion); one 2x2 filter over a 2x3 image
    with one pad column on the right and two channels of which one is logical."""
    sd = storage_dtype(t)
    bits = t.info.carrier_bits
    word = (0x5A5A5A5A5A5A5A5A << 8 | 0x77) & ((1 << 64) - 1)
    fmap = ("#pto.fmap<nc1hwc0, height = 2, width = 3, channels_per_group = 2, filter_height = 2,"
            f" filter_width = 2, pad_right = 1, logical_channels = 1, padding = {word}>")  # fmt: skip
    cols = 12  # 12 elements: H*W*C0
    src_t = f"!pto.tile<{1024 // (16 * bits)}x16x{t.ir}, valid=1x{cols}, mat>"  # 128-byte tiles
    dst_t = f"!pto.tile<{1024 // (8 * bits)}x8x{t.ir}, valid=3x8, mat>"
    raw = np.arange(1, cols + 1, dtype=f"u{bits // 8}") * 3
    (d,) = run(_text(t, fmap, src_t, dst_t), "f", raw.view(sd).reshape(1, cols))
    flat = raw.tolist()
    pad = word & ((1 << bits) - 1)
    want = []
    for ox in range(3):  # outH = 1, outW = 3
        line = []
        for ky in range(2):
            for kx in range(2):
                x = ox + kx
                line += [flat[(ky * 3 + x) * 2] if x < 3 else pad, pad]  # channel 1 unassigned
        want.append(line)
    assert d.shape == (4, 3, 8) and d[0].view(f"u{bits // 8}").tolist() == want
    assert all(np.array_equal(d[p].view(np.uint8), d[0].view(np.uint8)) for p in range(4))


def test_tile_level_positions_padding_and_faults():
    """posM / posK as i64 operands (their low sixteen bits), Null padding outside the
    destination's valid rectangle, each PE its own payload; a referenced element outside the
    source's valid rectangle (Null padding, undefined) faults before any effect."""
    from interpreter.ssa.pto_functions import local_plan
    from interpreter.ssa.runner import build_context, parse_module_text
    from interpreter.ssa.runtime import tile_from_array
    from pto_dialect.tile_rearrange import TImg2ColOp

    fmap = "#pto.fmap<nc1hwc0, height = 3, width = 3, filter_height = 2, filter_width = 2>"
    src_t, dst_t = "!pto.tile<16x8xsi16, valid=2x8, mat>", "!pto.tile<16x8xsi16, valid=2x3, mat>"
    text = _text(T.S16, fmap, src_t, dst_t, params=True)
    src = np.stack([np.arange(16, dtype=np.int16).reshape(2, 8) + 100 * p for p in range(4)])
    (d,) = run(text, "f", src, np.int64(1 + (5 << 16)), np.int64(1))  # posM 1, posK 1
    # output 2x2, rows m = 1, 2 -> (oy, ox) = (0, 1), (1, 0); columns k = 1..3 -> (ky, kx) =
    # (0, 1), (1, 0), (1, 1): input (iy, ix) = (0, 2), (1, 1), (1, 2) and (1, 1), (2, 0), (2, 1)
    assert d[0].tolist() == [[2, 4, 5], [4, 6, 7]] and d[3].tolist() == [[302, 304, 305], [304, 306, 307]]
    op = next(o for o in parse_module_text(text, ctx=build_context()).walk() if isinstance(o, TImg2ColOp))
    (r,) = local_plan(op)(tile_from_array(op.srcs[0].type, src[0]), 1, 1)
    assert not r.defined[0][:, 3:].any() and not r.defined[0][2:].any() and r.defined[0][:2, :3].all()
    short = "!pto.tile<16x8xsi16, valid=1x8, mat>"  # element 8 (row 1) is Null padding
    short_text = _text(T.S16, fmap, short, dst_t, params=True)
    (d,) = run(short_text, "f", src[0, :1], np.int64(1), np.int64(1))  # reads elements <= 7
    assert d[0].tolist() == [[2, 4, 5], [4, 6, 7]]
    with pytest.raises(PTOFault, match=r"element 8 \(read by destination \(1, 2\)\) is undefined"):
        run(short_text, "f", src[0, :1], np.int64(2), np.int64(1))  # (oy, ox) = (1, 1) reads (2, 2)


def test_block_form_is_refused_with_the_reason():
    """No block former and no decoded dispatch (docs/rearrange.md): pto-form-blocks refuses
    the op naming the descriptor state, and a linked TIMG2COL block has no tile-level op."""
    from xdsl.utils.exceptions import PassFailedException

    from pto_dialect import isa
    from pto_dialect.block_ops import block_unsound, source_roles
    from pto_dialect.families import op_of_selector

    fmap = "#pto.fmap<nc1hwc0, height = 2, width = 2, filter_height = 2, filter_width = 2>"
    t = "!pto.tile<32x4xf32, valid=1x4, mat>"
    with pytest.raises(PassFailedException, match="feature-map-descriptors.asl"):
        bundled(_text(T.FP32, fmap, t, t))
    assert block_unsound(op_of_selector(isa.BlockFamily.TEPL, 4, 3))
    s = isa.check_block(isa.parse_program("BSTART.SFU TIMG2COL, FP32\nB.DIM zero, 4, ->lb0\n"
                                          "B.IOT t#1, mask=1111, last, ->t<128B>\nBSTOP"))  # fmt: skip
    with pytest.raises(PTOFault, match="TIMG2COL have no tile-level op here: a block cannot"):
        source_roles(s)
