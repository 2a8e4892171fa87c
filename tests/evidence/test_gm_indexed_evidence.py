"""Evidence for the global-memory TLSU ops (``pto_dialect/gm_indexed.py``, D25).

References are INDEPENDENT of the kernels: plain Python loops over the lanes in the ASL's
order (``asl/tile/model/memory/gather-scatter.asl``, ``atomics.asl``) on a ``bytearray``
copy of GM, with the address ``(base + displacement) mod 2^64`` computed on Python integers
(the displacement sign- or zero-extended by hand from the index width), the probe of every
lane before any effect (DataAlignment before DataPage, the first failing lane's address) and
``int.from_bytes`` / ``to_bytes`` for the little-endian elements. Each op runs at tile level
(``interpreter.run``, both engines) and as its decoded block (``pto-form-blocks`` +
``pto-assign-registers``); hypothesis draws the element and index types, the shapes, the
indices (in range, out of range, misaligned, duplicates), the masks and the data.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import run
from interpreter.ssa.runner import build_context, parse_module_text
from interpreter.ssa.runtime import storage_dtype
from passes import get_all_passes
from pto_dialect.datatypes import TileDataType as T
from pto_dialect.faults import FaultCode, PTOFault
from pto_dialect.gm_indexed import GM_OPS
from tests.budget import examples

EXECUTED = {c.name for c in GM_OPS}
GM_BYTES = 512
PES = 4
DATA_TYPES = [T.U8, T.S16, T.FP32, T.U64, T.BF16]
INDEX_TYPES = [T.S32, T.U32, T.S64, T.U16, T.S8]


def _tile(dt: T, vr: int, vc: int) -> str:
    rows = 128 * 8 // (8 * dt.info.carrier_bits)
    return f"!pto.tile<{rows}x8x{_elt(dt)}, valid={vr}x{vc}>"


def _elt(dt: T) -> str:
    return {T.U8: "ui8", T.S16: "si16", T.FP32: "f32", T.U64: "ui64", T.BF16: "bf16",
            T.S32: "si32", T.U32: "ui32", T.S64: "si64", T.U16: "ui16", T.S8: "si8"}[dt]


def _pred(vr: int, vc: int) -> str:
    return f"!pto.pred<{vr}x8, valid={vr}x{vc}>"


GM_T = f"tensor<{GM_BYTES}xi8>"


def _program(op: str, dt: T, it: T, vr: int, vc: int) -> str:
    d, i, p = _tile(dt, vr, vc), _tile(it, vr, vc), _pred(vr, vc)
    pad = " {pad = #pto.pad<max>}"
    if op == "mgather":
        args, body, res = [("gm", GM_T), ("b", "index"), ("i", i)], \
            f"%r = pto.mgather %gm, %b, %i{pad} : ({GM_T}, index, {i}) -> {d}", [("r", d)]
    elif op == "mgather_mask":
        args = [("gm", GM_T), ("b", "index"), ("i", i), ("m", p)]
        body = f"%r = pto.mgather_mask %gm, %b, %i, %m{pad} : ({GM_T}, index, {i}, {p}) -> {d}"
        res = [("r", d)]
    elif op == "mgather_cas":
        args = [("gm", GM_T), ("b", "index"), ("i", i), ("e", d), ("x", d)]
        body = (f"%r, %g = pto.mgather_cas %gm, %b, %i, %e, %x : ({GM_T}, index, {i}, {d}, {d})"
                f" -> ({d}, {GM_T})")
        res = [("r", d), ("g", GM_T)]
    elif op == "mscatter":
        args = [("v", d), ("gm", GM_T), ("b", "index"), ("i", i)]
        body = f"%g = pto.mscatter %v, %gm, %b, %i : ({d}, {GM_T}, index, {i}) -> {GM_T}"
        res = [("g", GM_T)]
    else:
        args = [("v", d), ("gm", GM_T), ("b", "index"), ("i", i), ("m", p)]
        body = (f"%g = pto.mscatter_mask %v, %gm, %b, %i, %m : ({d}, {GM_T}, index, {i}, {p}) "
                f"-> {GM_T}")
        res = [("g", GM_T)]
    sig = ", ".join(f"%{n}: {t}" for n, t in args)
    outs = ", ".join(t for _, t in res)
    return (f"func.func @f({sig}) -> ({outs}) {{\n  {body}\n"
            f"  func.return {', '.join('%' + n for n, _ in res)} : {outs}\n}}\n")


@cache
def _module(text: str, bundled: bool):
    ctx = build_context()
    m = parse_module_text(text, ctx=ctx)
    m.verify()
    if bundled:
        passes = get_all_passes()
        for name in ("pto-form-blocks", "pto-assign-registers"):
            passes[name]()().apply(ctx, m)
        m.verify()
    return m


# ---- the independent reference ---------------------------------------------------------------
def _disp(v: int, it: T) -> int:
    bits = it.info.carrier_bits
    v &= (1 << bits) - 1
    if it.is_signed and v >> (bits - 1):
        v -= 1 << bits
    return v


def _probe(addrs: list[int], nb: int, size: int):
    for a in addrs:
        if a % nb:
            return FaultCode.DATA_ALIGNMENT, a
        if a + nb > size:
            return FaultCode.DATA_PAGE, a
    return None


def _reference(op: str, gm: bytearray, base: int, idx, nb: int, it: T, data=None, mask=None,
               exp=None, rep=None, fill: int = 0):  # fmt: skip
    """(result words per lane or None, the GM after, the fault or None): lanes PE-major then
    row-major, as plain Python integers."""
    lanes = range(len(idx))
    on = [True] * len(idx) if mask is None else [bool(m) for m in mask]
    addrs = [(base + _disp(int(idx[k]), it)) % 2**64 for k in lanes]
    fault = _probe([addrs[k] for k in lanes if on[k]], nb, len(gm))
    if fault:
        return None, gm, fault
    mem = bytearray(gm)
    out = []
    for k in lanes:
        a = addrs[k]
        if not on[k]:
            out.append(fill)
            continue
        old = int.from_bytes(mem[a:a + nb], "little")
        if op.startswith("mscatter"):
            mem[a:a + nb] = (int(data[k]) % 2 ** (8 * nb)).to_bytes(nb, "little")
        elif op == "mgather_cas":
            out.append(old)
            if old == int(exp[k]) % 2 ** (8 * nb):
                mem[a:a + nb] = (int(rep[k]) % 2 ** (8 * nb)).to_bytes(nb, "little")
        else:
            out.append(old)
    return out, mem, None


def _bits(a: np.ndarray) -> list[int]:
    a = np.asarray(a)
    return [int(x) for x in a.view(f"u{a.dtype.itemsize}").reshape(-1)]


@st.composite
def cases(draw):
    op = draw(st.sampled_from(["mgather", "mgather_mask", "mgather_cas", "mscatter",
                               "mscatter_mask"]))  # fmt: skip
    dt = draw(st.sampled_from(DATA_TYPES))
    it = draw(st.sampled_from(INDEX_TYPES))
    vr = draw(st.integers(1, 2))
    vc = draw(st.integers(1, 8))
    nb = max(1, dt.info.carrier_bits // 8)
    n = PES * vr * vc
    base = draw(st.sampled_from([0, 64, 256, GM_BYTES - 8]))
    lo = -(1 << (it.info.carrier_bits - 1)) if it.is_signed else 0
    hi = (1 << (it.info.carrier_bits - (1 if it.is_signed else 0))) - 1
    in_range = st.integers(0, (GM_BYTES - nb) // nb).map(lambda k: k * nb - base)
    anywhere = st.integers(lo, hi)
    rel = draw(st.lists(st.one_of(in_range, in_range, in_range, anywhere), min_size=n,
                        max_size=n))  # fmt: skip
    idx = [min(max(r, lo), hi) for r in rel]
    gm = draw(st.binary(min_size=GM_BYTES, max_size=GM_BYTES))
    words = st.integers(0, 2 ** (8 * nb) - 1)
    data = draw(st.lists(words, min_size=n, max_size=n))
    exp = [draw(st.sampled_from([d, w])) for d, w in zip(data, draw(st.lists(words, min_size=n,
                                                                             max_size=n)))]
    mask = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    return op, dt, it, vr, vc, base, idx, bytearray(gm), data, exp, mask


def _arr(dt: T, words: list[int], shape) -> np.ndarray:
    sd = storage_dtype(dt)
    return np.array(words, f"u{sd.itemsize}").view(sd).reshape(shape)


@settings(max_examples=examples(40), deadline=None)
@given(cases(), st.booleans())
def test_against_scalar_reference(case, bundled):
    """Every gather / scatter / CAS form equals the scalar reference, faults included (the
    same code and address, GM unchanged)."""
    op, dt, it, vr, vc, base, idx, gm, data, exp, mask = case
    nb = max(1, dt.info.carrier_bits // 8)
    shape = (PES, vr, vc)
    isd = storage_dtype(it)
    index = np.array([i % 2 ** it.info.carrier_bits for i in idx], f"u{isd.itemsize}").view(
        isd).reshape(shape)  # fmt: skip
    fill = (1 << (8 * nb)) - 1 if dt.is_integer and not dt.is_signed else None
    masked = op.endswith("_mask")
    rep = data  # the CAS replacement is the data stream; its expected values are ``exp``
    want, after, fault = _reference(op, gm, base, idx, nb, it,
                                    data=data, mask=mask if masked else None, exp=exp, rep=rep,
                                    fill=fill or 0)  # fmt: skip
    gm_arr = np.frombuffer(bytes(gm), np.int8).copy()
    args: list = []
    if op.startswith("mscatter"):
        args = [_arr(dt, data, shape), gm_arr, base, index]
    else:
        args = [gm_arr, base, index]
    if masked:
        args.append(np.array(mask, bool).reshape(shape))
    if op == "mgather_cas":
        args += [_arr(dt, exp, shape), _arr(dt, rep, shape)]
    m = _module(_program(op, dt, it, vr, vc), bundled)
    if fault is not None:
        with pytest.raises(PTOFault) as e:
            run(m, "f", *args, engine="both")
        assert (e.value.code, e.value.address) == fault
        assert gm_arr.tobytes() == bytes(gm), "a faulting op changed its GM operand"
        return
    out = run(m, "f", *args, engine="both")
    out = out if isinstance(out, tuple) else (out,)
    if op.startswith("mgather"):
        got = _bits(out[0])
        if masked and fill is None:  # a float / signed Max pad: compare the enabled lanes
            got = [g if k else 0 for g, k in zip(got, mask)]
            want = [w if k else 0 for w, k in zip(want, mask)]
        assert got == want
    if op != "mgather" and op != "mgather_mask":
        assert np.asarray(out[-1]).tobytes() == bytes(after)
    assert gm_arr.tobytes() == bytes(gm), "the GM operand was modified in place"


def test_duplicate_scatter_keeps_last_lane_and_cas_serializes():
    """Hand-derived: MSCATTER of 1, 2, 3 to one byte leaves 3 (lane order, D25); MGATHER.CAS of
    three lanes on one byte holding 5, expecting 5, 6, 9 with replacements 6, 9, 1: lane 0
    sees 5 and writes 6, lane 1 sees 6 and writes 9, lane 2 sees 9 and writes 1."""
    idx = np.zeros((PES, 1, 3), np.int32)
    gm = np.zeros(GM_BYTES, np.int8)
    m = _module(_program("mscatter", T.U8, T.S32, 1, 3), False)
    v = np.tile(np.array([[[1, 2, 3]]], np.uint8), (PES, 1, 1))
    assert run(m, "f", v, gm, 7, idx)[0][7] == 3
    gm[7] = 5
    m = _module(_program("mgather_cas", T.U8, T.S32, 1, 3), False)
    one = np.zeros((PES, 1, 3), np.int32)
    one[1:] = 100  # the other PEs work on byte 107, holding 0: no match
    e = np.array([[[5, 6, 9]]] * PES, np.uint8)
    r = np.array([[[6, 9, 1]]] * PES, np.uint8)
    d, g = run(m, "f", gm, 7, one, e, r)
    assert d[0].ravel().tolist() == [5, 6, 9] and g[7] == 1 and g[107] == 0
    assert d[1].ravel().tolist() == [0, 0, 0]


def test_gmov_against_peers():
    src_t = "!pto.tile<128x1xui8, valid=1x1>"
    text = (f"func.func @f(%s: {src_t}) -> {src_t} {{\n  %d = pto.gmov %s {{peers = array<i64: "
            f"2, 2, 0, 3>}} : ({src_t}) -> {src_t}\n  func.return %d : {src_t}\n}}\n")  # fmt: skip
    src = np.array([[[10]], [[11]], [[12]], [[13]]], np.uint8)
    for bundled in (False, True):
        out = run(_module(text, bundled), "f", src, engine="both")
        out = out[0] if isinstance(out, tuple) else out
        assert out.ravel().tolist() == [12, 12, 10, 13]


def test_tprefetch_faults_only():
    """No result and no GM change; a footprint past GM (base 504, stride 4 U16 elements: row 1
    starts at 504 + 8 = 512, the first access beyond the 512 bytes in row-major order) is
    DataPage at 512; a misaligned base is DataAlignment at it."""
    fp = "!pto.tile<64x2xui16, valid=2x2>"
    text = (f"func.func @f(%gm: {GM_T}, %b: index, %s: index) {{\n  pto.tprefetch %gm, %b, %s "
            f"{{footprint = {fp}}} : ({GM_T}, index, index) -> ()\n  func.return\n}}\n")
    gm = np.zeros(GM_BYTES, np.int8)
    for bundled in (False, True):
        m = _module(text, bundled)
        run(m, "f", gm, 0, 8, engine="both")
        with pytest.raises(PTOFault) as e:
            run(m, "f", gm, GM_BYTES - 8, 4)
        assert (e.value.code, e.value.address) == (FaultCode.DATA_PAGE, GM_BYTES)
        with pytest.raises(PTOFault) as e:
            run(m, "f", gm, 1, 4)
        assert (e.value.code, e.value.address) == (FaultCode.DATA_ALIGNMENT, 1)


def test_embedding_example_against_numpy():
    """examples/embedding_gather.mlir (ids -> byte displacements with tile ops -> MGATHER from
    the table in GM) equals numpy's ``table[ids]``, at tile level and as linked blocks; an id
    past the table is DataPage at its row's first byte."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "examples" / "embedding_gather.mlir").read_text()
    table = (np.arange(64, dtype=np.float32).reshape(16, 4) - 20) / 4
    ids = np.array([[5], [0], [15], [5]], np.int32)
    for bundled in (False, True):
        out = run(_module(text, bundled), "embedding", table, ids, engine="both")
        out = out[0] if isinstance(out, tuple) else out
        assert np.asarray(out)[0].tobytes() == table[ids[:, 0]].tobytes()
        with pytest.raises(PTOFault) as e:
            run(_module(text, bundled), "embedding", table, np.array([[1], [16], [0], [0]],
                                                                     np.int32))  # fmt: skip
        assert (e.value.code, e.value.address) == (FaultCode.DATA_PAGE, 16 * 16)
