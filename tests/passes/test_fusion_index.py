"""Elementwise fusion carries ``linalg.index`` across the consumer's map (issue 23, item 2).

A producer generic that reads ``linalg.index i`` computes its element at its own iteration
point; fused into a consumer that reads it through ``#mc``, that point is ``mc(d)``, so the
index must become the consumer dim ``mc.results[i]``. Checked by running every program
before fusion, after ``pto-fuse-elementwise``, after ``pto-lower{level=tile}`` and after
``pto-lower`` (both engines) against a numpy reference written from the program's meaning:
broadcast and permuted consumers, several uses, a yielded index, a chain of three generics,
a consumer with its own ``linalg.index`` and a constant map result (kept unfused).
"""

from __future__ import annotations

import numpy as np
import pytest
from lowering_helpers import apply, parse

from interpreter import run
from passes.lowering.fusion import PTOFuseElementwisePass
from passes.pto_lower import PTOLowerPass

PAR = '"parallel"'


def _generic(maps: list[str], ins: list[tuple[str, str]], out: tuple[str, str], body: str,
             rank: int, name: str) -> str:  # fmt: skip
    its = ", ".join([PAR] * rank)
    args = ", ".join(f"%{name}_a{i}: {t.split('x')[-1].rstrip('>')}" for i, (_, t) in enumerate(ins))
    out_elt = out[1].split("x")[-1].rstrip(">")
    ins_txt = (
        f"ins({', '.join(v for v, _ in ins)} : {', '.join(t for _, t in ins)}) " if ins else ""
    )
    head = f"^bb0({args + ', ' if args else ''}%{name}_o: {out_elt}):"
    return (
        f"  %{name} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{its}]}} "
        f"{ins_txt}outs({out[0]} : {out[1]}) {{\n  {head}\n{body}\n  }} -> {out[1]}\n"
    )


def trilu_program() -> str:
    """The issue's example: x * lower-triangular mask built with linalg.index."""
    mask = _generic(
        ["affine_map<(d0, d1) -> (d0, d1)>"], [], ("%e2", "tensor<4x4xf32>"),
        """    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %le = arith.cmpi ule, %j, %i : index
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %v = arith.select %le, %one, %zero : f32
    linalg.yield %v : f32""", 2, "mask")  # fmt: skip
    prod = _generic(
        ["affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>", "affine_map<(d0, d1, d2, d3) -> (d2, d3)>",
         "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"],
        [("%x", "tensor<1x2x4x4xf32>"), ("%mask", "tensor<4x4xf32>")], ("%e", "tensor<1x2x4x4xf32>"),
        """    %s = arith.mulf %r_a0, %r_a1 : f32
    linalg.yield %s : f32""", 4, "r")  # fmt: skip
    return f"""func.func @f(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {{
  %e2 = tensor.empty() : tensor<4x4xf32>
{mask}  %e = tensor.empty() : tensor<1x2x4x4xf32>
{prod}  return %r : tensor<1x2x4x4xf32>
}}
"""


def index_value_body(name: str, a: str, b: str) -> str:
    """yield float(10 * index a + index b) (index a, b used once each)."""
    return f"""    %{name}_i = linalg.index {a} : index
    %{name}_j = linalg.index {b} : index
    %{name}_t = arith.constant 10 : index
    %{name}_m = arith.muli %{name}_i, %{name}_t : index
    %{name}_s = arith.addi %{name}_m, %{name}_j : index
    %{name}_c = arith.index_cast %{name}_s : index to i32
    %{name}_f = arith.sitofp %{name}_c : i32 to f32
    linalg.yield %{name}_f : f32"""


def two_step(pshape: str, cshape: str, cmap: str, crank: int, consumer_body: str | None = None) -> str:
    """Producer: p[i, j] = 10 i + j over ``pshape``; consumer: x + p read through ``cmap``."""
    pr = len(pshape.split("x"))
    pid = f"affine_map<({', '.join(f'd{k}' for k in range(pr))}) -> ({', '.join(f'd{k}' for k in range(pr))})>"
    cid = f"affine_map<({', '.join(f'd{k}' for k in range(crank))}) -> ({', '.join(f'd{k}' for k in range(crank))})>"
    p = _generic([pid], [], ("%ep", f"tensor<{pshape}xf32>"), index_value_body("p", "0", "1"), pr, "p")
    body = consumer_body or """    %s = arith.addf %r_a0, %r_a1 : f32
    linalg.yield %s : f32"""
    r = _generic([cid, cmap, cid], [("%x", f"tensor<{cshape}xf32>"), ("%p", f"tensor<{pshape}xf32>")],
                 ("%e", f"tensor<{cshape}xf32>"), body, crank, "r")  # fmt: skip
    return f"""func.func @f(%x: tensor<{cshape}xf32>) -> tensor<{cshape}xf32> {{
  %ep = tensor.empty() : tensor<{pshape}xf32>
{p}  %e = tensor.empty() : tensor<{cshape}xf32>
{r}  return %r : tensor<{cshape}xf32>
}}
"""


def chain_program() -> str:
    """p[i, j] = 10 i + j (3x5); q = transpose-read of p (5x3) plus q's own index; r = x + q
    read transposed again: r[i, j] = x + 10 i + j + (10 j + i)."""
    p = _generic(["affine_map<(d0, d1) -> (d0, d1)>"], [], ("%ep", "tensor<3x5xf32>"),
                 index_value_body("p", "0", "1"), 2, "p")  # fmt: skip
    q = _generic(["affine_map<(d0, d1) -> (d1, d0)>", "affine_map<(d0, d1) -> (d0, d1)>"],
                 [("%p", "tensor<3x5xf32>")], ("%eq", "tensor<5x3xf32>"),
                 """    %qi = linalg.index 0 : index
    %qj = linalg.index 1 : index
    %qt = arith.constant 10 : index
    %qm = arith.muli %qi, %qt : index
    %qs = arith.addi %qm, %qj : index
    %qc = arith.index_cast %qs : index to i32
    %qf = arith.sitofp %qc : i32 to f32
    %qr = arith.addf %q_a0, %qf : f32
    linalg.yield %qr : f32""", 2, "q")  # fmt: skip
    r = _generic(["affine_map<(d0, d1) -> (d0, d1)>", "affine_map<(d0, d1) -> (d1, d0)>",
                  "affine_map<(d0, d1) -> (d0, d1)>"],
                 [("%x", "tensor<3x5xf32>"), ("%q", "tensor<5x3xf32>")], ("%e", "tensor<3x5xf32>"),
                 """    %s = arith.addf %r_a0, %r_a1 : f32
    linalg.yield %s : f32""", 2, "r")  # fmt: skip
    return f"""func.func @f(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {{
  %ep = tensor.empty() : tensor<3x5xf32>
{p}  %eq = tensor.empty() : tensor<5x3xf32>
{q}  %e = tensor.empty() : tensor<3x5xf32>
{r}  return %r : tensor<3x5xf32>
}}
"""


def twice_program() -> str:
    """The producer read twice by its consumer through one broadcast map: r = x + p * p."""
    p = _generic(["affine_map<(d0, d1) -> (d0, d1)>"], [], ("%ep", "tensor<4x3xf32>"),
                 index_value_body("p", "1", "0"), 2, "p")  # fmt: skip
    r = _generic(["affine_map<(d0, d1, d2) -> (d0, d1, d2)>", "affine_map<(d0, d1, d2) -> (d2, d1)>",
                  "affine_map<(d0, d1, d2) -> (d2, d1)>", "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"],
                 [("%x", "tensor<2x3x4xf32>"), ("%p", "tensor<4x3xf32>"), ("%p", "tensor<4x3xf32>")],
                 ("%e", "tensor<2x3x4xf32>"),
                 """    %m = arith.mulf %r_a1, %r_a2 : f32
    %s = arith.addf %r_a0, %m : f32
    linalg.yield %s : f32""", 3, "r")  # fmt: skip
    return f"""func.func @f(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {{
  %ep = tensor.empty() : tensor<4x3xf32>
{p}  %e = tensor.empty() : tensor<2x3x4xf32>
{r}  return %r : tensor<2x3x4xf32>
}}
"""


def reduced_program() -> str:
    """A reduction consumer (never fused): out[i] = sum_j x[i, j] * p[j, i], p[a, b] = 10a + b."""
    p = _generic(["affine_map<(d0, d1) -> (d0, d1)>"], [], ("%ep", "tensor<5x3xf32>"),
                 index_value_body("p", "0", "1"), 2, "p")  # fmt: skip
    r = _generic(["affine_map<(d0, d1) -> (d0, d1)>", "affine_map<(d0, d1) -> (d1, d0)>",
                  "affine_map<(d0, d1) -> (d0)>"],
                 [("%x", "tensor<3x5xf32>"), ("%p", "tensor<5x3xf32>")], ("%f", "tensor<3xf32>"),
                 """    %m = arith.mulf %r_a0, %r_a1 : f32
    %s = arith.addf %r_o, %m : f32
    linalg.yield %s : f32""", 2, "r").replace('"parallel", "parallel"]', '"parallel", "reduction"]')  # fmt: skip
    return f"""func.func @f(%x: tensor<3x5xf32>) -> tensor<3xf32> {{
  %ep = tensor.empty() : tensor<5x3xf32>
{p}  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
{r}  return %r : tensor<3xf32>
}}
"""


def sequential_rows(x: np.ndarray, p: np.ndarray) -> np.ndarray:
    out = np.zeros(x.shape[0], np.float32)
    for j in range(x.shape[1]):  # in order, one f32 rounding per product and per add
        out = (out + (x[:, j] * p[:, j]).astype(np.float32)).astype(np.float32)
    return out


def index_grid(shape: tuple[int, ...], a: int, b: int) -> np.ndarray:
    idx = np.indices(shape)
    return (10 * idx[a] + idx[b]).astype(np.float32)


def cases() -> list[tuple[str, str, tuple[int, ...], object, bool]]:
    """(id, program, input shape, reference(x), fused?)"""
    own_index = """    %k = linalg.index 1 : index
    %kc = arith.index_cast %k : index to i32
    %kf = arith.sitofp %kc : i32 to f32
    %s = arith.addf %r_a0, %r_a1 : f32
    %t = arith.addf %s, %kf : f32
    linalg.yield %t : f32"""
    return [
        ("trilu-broadcast", trilu_program(), (1, 2, 4, 4),
         lambda x: x * np.tril(np.ones((4, 4), np.float32)), True),
        ("permuted", two_step("5x3", "3x5", "affine_map<(d0, d1) -> (d1, d0)>", 2), (3, 5),
         lambda x: x + index_grid((5, 3), 0, 1).T, True),
        ("broadcast-3d", two_step("4x6", "2x4x6", "affine_map<(d0, d1, d2) -> (d1, d2)>", 3), (2, 4, 6),
         lambda x: x + index_grid((4, 6), 0, 1)[None], True),
        ("broadcast-permuted-3d", two_step("6x2", "2x4x6", "affine_map<(d0, d1, d2) -> (d2, d0)>", 3),
         (2, 4, 6), lambda x: x + index_grid((6, 2), 0, 1).T[:, None, :], True),
        ("consumer-own-index", two_step("3x5", "3x5", "affine_map<(d0, d1) -> (d0, d1)>", 2,
                                        own_index), (3, 5),
         lambda x: x + index_grid((3, 5), 0, 1) + np.arange(5, dtype=np.float32), True),
        ("constant-result-kept", two_step("4x1", "4x6", "affine_map<(d0, d1) -> (d0, 0)>", 2), (4, 6),
         lambda x: x + index_grid((4, 1), 0, 1), False),
        ("read-twice", twice_program(), (2, 3, 4),
         lambda x: x + index_grid((4, 3), 1, 0).T[None] * index_grid((4, 3), 1, 0).T[None], True),
        ("reduction-consumer", reduced_program(), (3, 5),
         lambda x: sequential_rows(x, index_grid((5, 3), 0, 1).T), False),
        ("chain", chain_program(), (3, 5),
         lambda x: x + (index_grid((3, 5), 0, 1) + index_grid((3, 5), 1, 0)), True),
    ]  # fmt: skip


@pytest.mark.parametrize(("name", "text", "shape", "ref", "fused"), cases(), ids=[c[0] for c in cases()])
def test_fusion_keeps_index_meaning(name, text, shape, ref, fused) -> None:
    module = parse(text)
    x = np.random.default_rng(7).standard_normal(shape).astype(np.float32)
    want = ref(x)
    before = run(module, "f", x, engine="both")[0]
    assert np.array_equal(before, want)
    fused_module = apply(PTOFuseElementwisePass(), module)
    n_generic = str(fused_module).count("linalg.generic")
    if fused:
        assert n_generic == 1, str(fused_module)
    else:
        assert n_generic == 2, "a constant map result or a reduction keeps the producer apart"
    outs = [run(fused_module, "f", x, engine="both")[0]]
    for level in ("tile", "block"):
        outs.append(run(apply(PTOLowerPass(level=level), module), "f", x, engine="both")[0])
    for got in outs:
        assert np.array_equal(np.asarray(got).view(np.uint32), want.view(np.uint32)), name
