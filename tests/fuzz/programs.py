"""A seeded generator of random, well-typed linalg-on-tensors programs (issue 23).

:func:`generate` ``(seed)`` gives one :class:`Program`: MLIR text of ``func.func @f``, a
chain of 1-3 *stages*, each drawing from its own random stream (so a stage can be dropped or
simplified without changing the others, which is how :mod:`tests.fuzz.semantic` minimises a
finding). Stages:

* ``elementwise`` -- a ``linalg.generic`` (all parallel) whose body is a random expression
  tree over its inputs: float ``addf subf mulf divf maxnumf minnumf maximumf minimumf negf
  absf math.sqrt``, integer ``addi subi muli andi ori xori max/min s/u``, shifts by an amount
  masked below the width, ``divui``/``divsi``/``remui`` by a divisor forced positive, compare
  and select (``cmpf``/``cmpi`` of every predicate + ``arith.select``), ReLU and floor-mod
  idioms, ``linalg.index`` (``index_cast`` + ``sitofp``), casts from inputs of other element
  types (``extf truncf sitofp uitofp extsi extui trunci``, and ``fptosi``/``fptoui`` behind
  a range guard so they are never poison), scalar constants (decimal or hex, special values
  included). Inputs are read through identity, broadcast (dropped and constant-0 dims) and
  permutation maps; an input may be a dense constant (splat, list, hex, 0-d) or a
  ``linalg.fill``;
* ``reduction`` -- a ``linalg.generic`` with reduction iterators over leading, trailing,
  middle or scattered dims, dropped or kept (``0``) in the output map, a one-op combiner (or
  a two-op body such as a sum of squares) and a fill / splat init (the identity or another
  value);
* ``cast`` -- an elementwise conversion to another element type;
* ``named`` -- ``linalg.transpose``, ``copy``, ``add sub mul max min``, ``fill``;
* ``contraction`` -- ``linalg.matmul``, ``batch_matmul``, ``matvec``, ``vecmat`` and the
  GEMV / matmul ``linalg.generic`` forms (float ones only as the last stage: their result is
  compared within a bound, which a later non-Lipschitz op would not keep).

Element types f16, bf16, f32, i8, i16, i32, i64; shapes of rank 0-4 with odd sizes.
``Program.classes`` and ``Program.elts`` name what a program exercises, ``Program.keys``
the features that known, unfixed bugs depend on (``semantic.UNFIXED``).

Not generated (the reference interpreter cannot run them, or no semantics is fixed):
``linalg.broadcast`` / ``linalg.reduce`` (no interpretation function), ``math`` functions
other than ``sqrt`` (profile-defined results), ``remsi`` / ``remf`` alone, f64 and the
narrow float types, dynamic shapes, multiple results.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np

FLOATS = ("f16", "bf16", "f32")
INTS = ("i8", "i16", "i32", "i64")
ELTS = FLOATS + INTS
NP_DTYPE = {
    "f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16), "f32": np.dtype(np.float32),
    "i8": np.dtype(np.int8), "i16": np.dtype(np.int16), "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
}
BITS = {"f16": 16, "bf16": 16, "f32": 32, "i8": 8, "i16": 16, "i32": 32, "i64": 64}
CLASSES = ("elementwise", "cmp-sel", "reduction", "cast", "named", "broadcast", "permutation",
           "index", "constant", "contraction")


def is_float(elt: str) -> bool:
    return elt in FLOATS


def tensor_type(shape: tuple[int, ...], elt: str) -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}{elt}>"


def float_bits(value: float, elt: str) -> int:
    return int(np.array(value, dtype=NP_DTYPE[elt]).view(f"u{BITS[elt] // 8}"))


def bits_value(bits: int, elt: str) -> float:
    return float(np.array(bits, dtype=f"u{BITS[elt] // 8}").view(NP_DTYPE[elt]))


SPECIAL_BITS = {
    # +inf, -inf, qNaN, -qNaN, NaN with a payload, sNaN, +0, -0, smallest and largest
    # subnormal, smallest normal, largest finite, -largest finite, 1, -1
    "f32": [0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7FC01234, 0x7F800001, 0, 0x80000000,
            1, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000],
    "f16": [0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7E12, 0x7C01, 0, 0x8000, 1, 0x03FF, 0x0400, 0x7BFF,
            0xFBFF, 0x3C00, 0xBC00],
    "bf16": [0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7FC3, 0x7F81, 0, 0x8000, 1, 0x007F, 0x0080, 0x7F7F,
             0xFF7F, 0x3F80, 0xBF80],
}
SNAN_BITS = {"f32": 0x7F800001, "f16": 0x7C01, "bf16": 0x7F81}


def float_literal(rng: random.Random, elt: str, special: bool = True) -> tuple[str, int]:
    """A scalar float constant for MLIR text (decimal or hex bits) and its bit pattern."""
    if special and rng.random() < 0.3:
        bits = rng.choice(SPECIAL_BITS[elt])
        return f"0x{bits:0{BITS[elt] // 4}X}", bits
    v = rng.choice([0.0, 1.0, -1.0, 0.5, 2.0, -3.0, 0.25, 100.0, -0.0, 1.5, 7.0])
    if rng.random() < 0.3:
        v = rng.uniform(-8, 8)
    bits = float_bits(v, elt)
    exact = bits_value(bits, elt)
    if rng.random() < 0.25:
        return f"0x{bits:0{BITS[elt] // 4}X}", bits
    return repr(float(exact)) if "e" not in repr(exact) else f"{exact:.9e}", bits


def int_literal(rng: random.Random, elt: str) -> int:
    w = BITS[elt]
    return rng.choice([0, 1, -1, 2, 3, -7, 100, 2 ** (w - 1) - 1, -(2 ** (w - 1)), 5, 64 % 2**(w-1)])


@dataclass
class Arg:
    name: str
    shape: tuple[int, ...]
    elt: str
    scalar: bool = False
    moderate: bool = False
    """Float contraction operands: |x| in [2^-3, 2^4), zeros, infinities and NaNs (no
    overflow of a partial sum, so NaN and infinity results do not depend on the order)."""


@dataclass
class Value:
    name: str
    shape: tuple[int, ...]
    elt: str
    scalar: bool = False  # a scalar (not a tensor) function argument

    @property
    def type(self) -> str:
        return self.elt if self.scalar else tensor_type(self.shape, self.elt)


@dataclass
class Program:
    text: str
    args: list[Arg]
    classes: set[str] = field(default_factory=set)
    elts: set[str] = field(default_factory=set)
    keys: set[str] = field(default_factory=set)
    free_nan: bool = False
    """Some float op fixes no NaN payload (LLVM's rules, D21): any NaN equals any NaN."""
    contraction: bool = False
    """The result is a float contraction: compared within the D18/D4 bound."""
    contraction_k: int = 0
    contraction_elt: str = "f32"
    contraction_args: list[int] = field(default_factory=list)
    """Argument indices of A, B (and C when the init is not a fill)."""
    contraction_init: str | None = None
    contraction_bias: int | None = None
    """Argument index of a bias added after the contraction (per column or full)."""
    constants: list[tuple[str, np.ndarray]] = field(default_factory=list)
    """(name, value) of the dense constants, for the twin program that takes them as args."""
    twin: str | None = None
    """The same program with every dense constant an argument (appended after ``args``)."""
    stages: int = 0
    lower_options: dict = field(default_factory=dict)
    """``pto-lower`` options: small ``tile-bytes`` and fewer PEs split small tensors into
    many tiles and PE groups with tails (the tiling of ``pto-tile-to-capacity``)."""


@dataclass
class Limits:
    """What minimisation shrinks: stages kept, body depth per stage, the largest dim."""

    stages: int | None = None
    depth: dict[int, int] = field(default_factory=dict)
    max_dim: int = 64


class Builder:
    def __init__(self, limits: Limits):
        self.lines: list[str] = []
        self.args: list[Arg] = []
        self.n = 0
        self.limits = limits
        self.classes: set[str] = set()
        self.elts: set[str] = set()
        self.keys: set[str] = set()
        self.free_nan = False
        self.constants: list[tuple[str, np.ndarray, str]] = []  # name, value, type
        self.contraction_k = 0
        self.contraction_elt = "f32"
        self.contraction_args: list[int] = []
        self.contraction_init: str | None = None
        self.contraction_bias: int | None = None
        self.values: list[Value] = []  # the stages' results so far

    def fresh(self, prefix: str = "v") -> str:
        self.n += 1
        return f"%{prefix}{self.n}"

    def arg(self, shape: tuple[int, ...], elt: str, moderate: bool = False) -> Value:
        name = f"%arg{len(self.args)}"
        self.args.append(Arg(name, shape, elt, moderate=moderate))
        self.elts.add(elt)
        return Value(name, shape, elt)

    def scalar_arg(self, elt: str) -> Value:
        name = f"%arg{len(self.args)}"
        self.args.append(Arg(name, (), elt, scalar=True))
        self.elts.add(elt)
        return Value(name, (), elt, scalar=True)

    def emit(self, line: str) -> None:
        self.lines.append("  " + line)

    def empty(self, shape: tuple[int, ...], elt: str) -> str:
        e = self.fresh("e")
        self.emit(f"{e} = tensor.empty() : {tensor_type(shape, elt)}")
        return e

    def dim(self, rng: random.Random) -> int:
        d = rng.choice([1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 64])
        return min(d, self.limits.max_dim)

    def shape(self, rng: random.Random, rank: int | None = None) -> tuple[int, ...]:
        if rank is None:
            rank = rng.choices([0, 1, 2, 3, 4], [0.5, 5, 8, 4, 2])[0]
        while True:
            s = tuple(self.dim(rng) for _ in range(rank))
            if int(np.prod(s, dtype=np.int64)) <= 1024:
                return s

    # -- constants ----------------------------------------------------------------------

    def dense(self, rng: random.Random, shape: tuple[int, ...], elt: str) -> Value:
        """A dense constant: splat, list (nested for rank > 1) or 0-d, decimal or hex."""
        n = int(np.prod(shape, dtype=np.int64))
        t = tensor_type(shape, elt)
        splat = n == 1 or rng.random() < 0.5
        hexa = is_float(elt) and rng.random() < 0.6
        count = 1 if splat else n
        if is_float(elt):
            lits = [float_literal(rng, elt, special=True) for _ in range(count)]
            if hexa:
                lits = [(f"0x{b:0{BITS[elt] // 4}X}", b) for _, b in lits]
            else:  # decimal only: a special value has no decimal spelling
                lits = [_decimal(b, elt) for _, b in lits]
            bits = np.array([b for _, b in lits], dtype=f"u{BITS[elt] // 8}")
            values = bits.view(NP_DTYPE[elt])
            texts = [lit for lit, _ in lits]
            if any(t_.startswith("0x") for t_ in texts):
                self.keys.add("hex-dense")
        else:
            ints = [int_literal(rng, elt) for _ in range(count)]
            values = np.array(ints, dtype=NP_DTYPE[elt])
            texts = [str(i) for i in ints]
        full = np.broadcast_to(values, (n,)).reshape(shape) if splat else values.reshape(shape)
        if splat:
            body = texts[0]
        else:
            body = _nested(texts, shape)
        name = self.fresh("cst")
        self.emit(f"{name} = arith.constant dense<{body}> : {t}")
        self.constants.append((name, np.array(full), t))
        self.classes.add("constant")
        self.elts.add(elt)
        return Value(name, shape, elt)

    def fill(self, rng: random.Random, shape: tuple[int, ...], elt: str, lit: str) -> Value:
        c = self.fresh("c")
        self.emit(f"{c} = arith.constant {lit} : {elt}")
        e = self.empty(shape, elt)
        f = self.fresh("fill")
        t = tensor_type(shape, elt)
        self.emit(f"{f} = linalg.fill ins({c} : {elt}) outs({e} : {t}) -> {t}")
        return Value(f, shape, elt)


def _decimal(bits: int, elt: str) -> tuple[str, int]:
    """A decimal spelling of the value of ``bits`` (1.0 for a NaN or an infinity)."""
    v = bits_value(bits, elt)
    if not np.isfinite(v):
        v, bits = 1.0, float_bits(1.0, elt)
    return (repr(v) if "e" not in repr(v) else f"{v:.9e}"), bits


def _nested(texts: list[str], shape: tuple[int, ...]) -> str:
    if len(shape) <= 1:
        return "[" + ", ".join(texts) + "]"
    step = len(texts) // shape[0]
    return "[" + ", ".join(_nested(texts[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


def amap(rank: int, results: list[str]) -> str:
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({', '.join(results)})>"


# ======================================================================================
# Body expressions
# ======================================================================================

FLOAT_BIN = ["arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.maxnumf",
             "arith.minnumf", "arith.maximumf", "arith.minimumf"]
INT_BIN = ["arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori", "arith.xori",
           "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui"]
CMPF = ["oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
        "une", "uno"]
CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


class Body:
    """Emits a ``linalg.generic`` body: block arguments, then ops, then the yield."""

    def __init__(self, b: Builder, rng: random.Random, elt: str, leaves: list[tuple[str, str]],
                 rank: int, depth: int):
        self.b, self.rng, self.elt, self.rank, self.depth = b, rng, elt, rank, depth
        self.leaves = leaves  # (ssa name, element type) of the block arguments
        self.ops: list[str] = []
        self.n = 0

    def fresh(self) -> str:
        self.n += 1
        return f"%t{self.n}"

    def op(self, text: str) -> str:
        r = self.fresh()
        self.ops.append(f"    {r} = {text}")
        return r

    def const(self, elt: str, value: str | None = None) -> str:
        if value is None:
            value = float_literal(self.rng, elt)[0] if is_float(elt) else str(
                int_literal(self.rng, elt))
        return self.op(f"arith.constant {value} : {elt}")

    def leaf(self, elt: str) -> str:
        rng = self.rng
        same = [n for n, e in self.leaves if e == elt]
        r = rng.random()
        if same and r < 0.75:
            return rng.choice(same)
        if r < 0.78 and self.rank > 0:
            self.b.classes.add("index")
            self.b.keys.add("index")
            i = self.op(f"linalg.index {rng.randrange(self.rank)} : index")
            if is_float(elt):
                j = self.op(f"arith.index_cast {i} : index to i32")
                return self.op(f"arith.sitofp {j} : i32 to {elt}")
            return self.op(f"arith.index_cast {i} : index to {elt}")
        others = [(n, e) for n, e in self.leaves if e != elt]
        if others and r < 0.92:
            n, e = rng.choice(others)
            return self.cast(n, e, elt)
        return self.const(elt)

    def cast(self, v: str, src: str, dst: str) -> str:
        """``v`` of type ``src`` converted to ``dst`` (never poison)."""
        self.b.classes.add("cast")
        if is_float(src) and is_float(dst):
            self.b.free_nan = True
            if BITS[src] < BITS[dst]:
                return self.op(f"arith.extf {v} : {src} to {dst}")
            if BITS[src] > BITS[dst]:
                return self.op(f"arith.truncf {v} : {src} to {dst}")
            w = self.op(f"arith.extf {v} : {src} to f32")
            return self.op(f"arith.truncf {w} : f32 to {dst}")
        if not is_float(src) and not is_float(dst):
            if BITS[src] < BITS[dst]:
                kind = self.rng.choice(["extsi", "extui"])
                return self.op(f"arith.{kind} {v} : {src} to {dst}")
            return self.op(f"arith.trunci {v} : {src} to {dst}")
        if not is_float(src):
            kind = self.rng.choice(["sitofp", "uitofp"])
            return self.op(f"arith.{kind} {v} : {src} to {dst}")
        # float -> int: a guard makes NaN and out-of-range values 0 (fptosi would be poison)
        self.b.classes.add("cmp-sel")
        self.b.free_nan = True
        w = BITS[dst]
        unsigned = self.rng.random() < 0.3
        bound = float(2 ** (w if unsigned else w - 1))
        if bound > float(np.finfo(NP_DTYPE[src]).max):  # every finite value is in range
            hi = self.op(f"arith.constant 0x{float_bits(np.inf, src):0{BITS[src] // 4}X} : {src}")
        else:
            hi = self.op(f"arith.constant {bound:.1f} : {src}")
        zero = self.op(f"arith.constant 0.0 : {src}")
        if unsigned:
            lo = self.op(f"arith.constant -1.0 : {src}")
            c1 = self.op(f"arith.cmpf ogt, {v}, {lo} : {src}")
            c2 = self.op(f"arith.cmpf olt, {v}, {hi} : {src}")
            ok = self.op(f"arith.andi {c1}, {c2} : i1")
            g = self.op(f"arith.select {ok}, {v}, {zero} : {src}")
            return self.op(f"arith.fptoui {g} : {src} to {dst}")
        a = self.op(f"math.absf {v} : {src}")
        ok = self.op(f"arith.cmpf olt, {a}, {hi} : {src}")
        g = self.op(f"arith.select {ok}, {v}, {zero} : {src}")
        return self.op(f"arith.fptosi {g} : {src} to {dst}")

    def expr(self, depth: int) -> str:
        rng, elt = self.rng, self.elt
        if depth <= 0 or rng.random() < 0.2:
            return self.leaf(elt)
        r = rng.random()
        if r < 0.5:
            return self.binary(depth)
        if r < 0.7:
            return self.select(depth)
        if r < 0.85:
            return self.unary(depth)
        return self.idiom(depth)

    def binary(self, depth: int) -> str:
        rng, elt = self.rng, self.elt
        a, b = self.expr(depth - 1), self.expr(depth - 1)
        if is_float(elt):
            name = rng.choice(FLOAT_BIN)
            if name in ("arith.maxnumf", "arith.minnumf"):
                self.b.keys.add("maxnumf")
            self.b.free_nan = True
            return self.op(f"{name} {a}, {b} : {elt}")
        w = BITS[elt]
        r = rng.random()
        if r < 0.15:  # a shift by an amount masked below the width
            m = self.op(f"arith.constant {w - 1} : {elt}")
            s = self.op(f"arith.andi {b}, {m} : {elt}")
            kind = rng.choice(["shli", "shrsi", "shrui"])
            return self.op(f"arith.{kind} {a}, {s} : {elt}")
        if r < 0.25:  # a division by a positive divisor: never by 0, never INT_MIN / -1
            mx = self.op(f"arith.constant {2 ** (w - 1) - 1} : {elt}")
            one = self.op(f"arith.constant 1 : {elt}")
            d = self.op(f"arith.ori {self.op(f'arith.andi {b}, {mx} : {elt}')}, {one} : {elt}")
            kind = rng.choice(["divsi", "divui", "remui"])
            return self.op(f"arith.{kind} {a}, {d} : {elt}")
        return self.op(f"{rng.choice(INT_BIN)} {a}, {b} : {elt}")

    def cond(self, depth: int) -> str:
        rng, elt = self.rng, self.elt
        if self.rank >= 2 and rng.random() < 0.12:  # a mask from two indices (Trilu's)
            self.b.classes.add("index")
            self.b.keys.add("index")
            i = self.op(f"linalg.index {rng.randrange(self.rank)} : index")
            j = self.op(f"linalg.index {rng.randrange(self.rank)} : index")
            return self.op(f"arith.cmpi {rng.choice(CMPI)}, {i}, {j} : index")
        ctype = elt if rng.random() < 0.7 else rng.choice([e for _, e in self.leaves])
        x = self.expr(depth - 1) if ctype == elt else self.leaf(ctype)
        y = self.leaf(ctype) if rng.random() < 0.6 else self.const(ctype)
        if rng.random() < 0.5:
            x, y = y, x
        if is_float(ctype):
            c = self.op(f"arith.cmpf {rng.choice(CMPF)}, {x}, {y} : {ctype}")
        else:
            c = self.op(f"arith.cmpi {rng.choice(CMPI)}, {x}, {y} : {ctype}")
        if rng.random() < 0.15:  # a boolean combination of two compares
            d = self.cond(0) if depth > 1 else c
            c = self.op(f"arith.{rng.choice(['andi', 'ori', 'xori'])} {c}, {d} : i1")
        return c

    def select(self, depth: int) -> str:
        self.b.classes.add("cmp-sel")
        c = self.cond(depth)
        t, f = self.expr(depth - 1), self.expr(depth - 1)
        return self.op(f"arith.select {c}, {t}, {f} : {self.elt}")

    def unary(self, depth: int) -> str:
        rng, elt = self.rng, self.elt
        a = self.expr(depth - 1)
        if is_float(elt):
            name = rng.choice(["arith.negf", "math.absf", "math.absf", "math.sqrt", "math.floor",
                               "math.ceil", "math.trunc", "math.roundeven", "math.round"])
            if name not in ("arith.negf", "math.absf"):
                self.b.free_nan = True
            return self.op(f"{name} {a} : {elt}")
        r = rng.random()
        if r < 0.35:  # integer negation as 0 - x
            z = self.op(f"arith.constant 0 : {elt}")
            return self.op(f"arith.subi {z}, {a} : {elt}")
        if r < 0.7:  # torch-mlir's integer Neg / Abs: through a float (poison if it rounds)
            f = rng.choice(FLOATS)
            self.b.classes.add("cast")
            self.b.free_nan = True
            v = self.op(f"arith.sitofp {a} : {elt} to {f}")
            v = self.op(f"{rng.choice(['arith.negf', 'math.absf'])} {v} : {f}")
            return self.op(f"arith.fptosi {v} : {f} to {elt}")
        other = rng.choice([e for e in INTS if e != elt])
        return self.cast(self.cast(a, elt, other), other, elt)

    def idiom(self, depth: int) -> str:
        rng, elt = self.rng, self.elt
        x = self.expr(depth - 1)
        if is_float(elt):
            z = self.const(elt, "0.000000e+00")
            self.b.classes.add("cmp-sel")
            form = rng.randrange(3)
            if form == 0:
                self.b.free_nan = True
                return self.op(f"arith.maximumf {x}, {z} : {elt}")
            # the select spellings return x itself: its NaN payload is checked (D21)
            if form == 1:
                c = self.op(f"arith.cmpf ugt, {x}, {z} : {elt}")
                return self.op(f"arith.select {c}, {x}, {z} : {elt}")
            c = self.op(f"arith.cmpf olt, {x}, {z} : {elt}")
            return self.op(f"arith.select {c}, {z}, {x} : {elt}")
        if rng.random() < 0.75:  # integer max/min as compare and select
            y = self.expr(depth - 1)
            c = self.op(f"arith.cmpi {rng.choice(['slt', 'sgt', 'ult', 'ugt'])}, {x}, {y} : {elt}")
            self.b.classes.add("cmp-sel")
            return self.op(f"arith.select {c}, {x}, {y} : {elt}")
        # signed floor modulo (torch-mlir's aten.remainder) by a positive divisor
        w = BITS[elt]
        y = self.expr(depth - 1)
        mx = self.op(f"arith.constant {2 ** (w - 1) - 1} : {elt}")
        one = self.op(f"arith.constant 1 : {elt}")
        d = self.op(f"arith.ori {self.op(f'arith.andi {y}, {mx} : {elt}')}, {one} : {elt}")
        z = self.op(f"arith.constant 0 : {elt}")
        r = self.op(f"arith.remsi {x}, {d} : {elt}")
        nz = self.op(f"arith.cmpi ne, {r}, {z} : {elt}")
        bn = self.op(f"arith.cmpi slt, {d}, {z} : {elt}")
        rn = self.op(f"arith.cmpi slt, {r}, {z} : {elt}")
        s = self.op(f"arith.xori {bn}, {rn} : i1")
        fix = self.op(f"arith.andi {nz}, {s} : i1")
        sm = self.op(f"arith.addi {r}, {d} : {elt}")
        self.b.classes.add("cmp-sel")
        return self.op(f"arith.select {fix}, {sm}, {r} : {elt}")


# ======================================================================================
# Stages
# ======================================================================================


def _input_for(b: Builder, rng: random.Random, out_shape: tuple[int, ...], elt: str
               ) -> tuple[Value, str]:
    """A new input of ``elt`` read by an elementwise generic of ``out_shape``, and its map."""
    rank = len(out_shape)
    r = rng.random()
    if r > 0.93:  # a scalar argument (the TADDS ... forms)
        return b.scalar_arg(elt), amap(rank, [])
    if rank >= 2 and r < 0.2:  # permutation
        perm = list(range(rank))
        while perm == list(range(rank)):
            rng.shuffle(perm)
        b.classes.add("permutation")
        v = _source(b, rng, tuple(out_shape[p] for p in perm), elt)
        return v, amap(rank, [f"d{p}" for p in perm])
    if rank >= 1 and r < 0.5:  # broadcast: drop dims, or keep them as constant 0
        kept = sorted(rng.sample(range(rank), rng.randrange(rank)))
        if rng.random() < 0.3:
            shape = tuple(out_shape[d] if d in kept else 1 for d in range(rank))
            results = [f"d{d}" if d in kept else "0" for d in range(rank)]
        else:
            shape = tuple(out_shape[d] for d in kept)
            results = [f"d{d}" for d in kept]
        b.classes.add("broadcast")
        return _source(b, rng, shape, elt), amap(rank, results)
    return _source(b, rng, out_shape, elt), amap(rank, [f"d{d}" for d in range(rank)])


def _source(b: Builder, rng: random.Random, shape: tuple[int, ...], elt: str) -> Value:
    r = rng.random()
    if r < 0.15:
        return b.dense(rng, shape, elt)
    if r < 0.22:
        lit = float_literal(rng, elt)[0] if is_float(elt) else str(int_literal(rng, elt))
        b.classes.add("constant")
        return b.fill(rng, shape, elt, lit)
    return b.arg(shape, elt)


def stage_elementwise(b: Builder, rng: random.Random, src: Value, depth: int) -> Value:
    """An elementwise generic reading ``src`` (the previous stage: what fusion merges)
    through the identity, a permutation or a broadcast into more dimensions (a 2-D mask
    read by a 4-D consumer), maybe twice, maybe with an earlier stage's value (a producer
    with two users), and new inputs."""
    rank = len(src.shape)
    elt = src.elt if rng.random() < 0.8 else rng.choice(ELTS)
    shape, smap = src.shape, amap(rank, [f"d{d}" for d in range(rank)])
    r = rng.random()
    if rank >= 2 and r < 0.15:
        perm = list(range(rank))
        while perm == list(range(rank)):
            rng.shuffle(perm)
        shape = tuple(src.shape[p] for p in perm)
        smap = amap(rank, [f"d{perm.index(j)}" for j in range(rank)])
        b.classes.add("permutation")
    elif rank <= 3 and r < 0.35:
        out_rank = rank + rng.randint(1, min(2, 4 - rank))
        held = sorted(rng.sample(range(out_rank), rank))  # the output dims src varies along
        new = tuple(src.shape[held.index(i)] if i in held else b.dim(rng)
                    for i in range(out_rank))
        if int(np.prod(new, dtype=np.int64)) <= 1024:
            shape, smap = new, amap(out_rank, [f"d{i}" for i in held])
            b.classes.add("broadcast")
    ins: list[tuple[Value, str]] = [(src, smap)]
    if rng.random() < 0.1:
        ins.append((src, smap))
    earlier = [v for v in b.values if v.shape == shape and v.name != src.name]
    if earlier and rng.random() < 0.5:
        ins.append((rng.choice(earlier), amap(len(shape), [f"d{d}" for d in range(len(shape))])))
        b.keys.add("multi-use")
    for _ in range(rng.choice([0, 1, 1, 2])):
        e = elt if rng.random() < 0.75 else rng.choice(ELTS)
        ins.append(_input_for(b, rng, shape, e))
    return _generic(b, rng, ins, shape, elt, depth)


def _generic(b: Builder, rng: random.Random, ins: list[tuple[Value, str]],
             shape: tuple[int, ...], elt: str, depth: int) -> Value:
    rank = len(shape)
    b.classes.add("elementwise")
    b.elts.add(elt)
    leaves = [(f"%in{i}", v.elt) for i, (v, _) in enumerate(ins)]
    body = Body(b, rng, elt, leaves, rank, depth)
    y = body.expr(depth)
    e = b.empty(shape, elt)
    t = tensor_type(shape, elt)
    maps = [m for _, m in ins] + [amap(rank, [f"d{d}" for d in range(rank)])]
    its = ", ".join(['"parallel"'] * rank)
    r = b.fresh("g")
    b.emit(f"{r} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{its}]}} "
           f"ins({', '.join(v.name for v, _ in ins)} : {', '.join(v.type for v, _ in ins)}) "
           f"outs({e} : {t}) {{")
    args = ", ".join([f"{n}: {e_}" for n, e_ in leaves] + [f"%out: {elt}"])
    b.lines.append(f"  ^bb0({args}):")
    b.lines.extend(body.ops)
    b.lines.append(f"    linalg.yield {y} : {elt}")
    b.lines.append(f"  }} -> {t}")
    return Value(r, shape, elt)


REDUCE_FLOAT = {"arith.addf": "0.0", "arith.mulf": "1.0", "arith.maxnumf": "0xFF800000",
                "arith.minnumf": "0x7F800000", "arith.maximumf": "0xFF800000",
                "arith.minimumf": "0x7F800000"}
REDUCE_INT = ["arith.addi", "arith.muli", "arith.maxsi", "arith.minsi", "arith.maxui",
              "arith.minui", "arith.andi", "arith.ori", "arith.xori"]


def _int_identity(op: str, elt: str) -> int:
    w = BITS[elt]
    return {"arith.addi": 0, "arith.muli": 1, "arith.maxsi": -(2 ** (w - 1)),
            "arith.minsi": 2 ** (w - 1) - 1, "arith.maxui": 0, "arith.minui": -1,
            "arith.andi": -1, "arith.ori": 0, "arith.xori": 0}[op]


def _float_identity_literal(op: str, elt: str) -> str:
    lit = REDUCE_FLOAT[op]
    if lit.startswith("0x"):
        return f"0x{float_bits(bits_value(int(lit, 16), 'f32'), elt):0{BITS[elt] // 4}X}"
    return lit


def stage_reduction(b: Builder, rng: random.Random, src: Value, depth: int) -> Value:
    rank = len(src.shape)
    if rank == 0:
        return stage_elementwise(b, rng, src, depth)
    b.classes.add("reduction")
    elt = src.elt
    form = rng.random()
    if form < 0.35:
        red = list(range(rank - rng.randrange(1, rank + 1), rank))  # trailing
    elif form < 0.6:
        red = list(range(rng.randrange(1, rank + 1)))  # leading
    elif form < 0.8 and rank >= 3:
        lo = rng.randrange(1, rank - 1)
        red = list(range(lo, rng.randrange(lo + 1, rank)))  # middle
    else:
        red = sorted(rng.sample(range(rank), rng.randrange(1, rank + 1)))
    keep = rng.random() < 0.35
    out_shape = tuple(1 if d in red else s for d, s in enumerate(src.shape) if keep or d not in red)
    results = [("0" if d in red else f"d{d}") for d in range(rank) if keep or d not in red]
    if is_float(elt):
        op = rng.choice(list(REDUCE_FLOAT))
        if op in ("arith.maxnumf", "arith.minnumf"):
            b.keys.add("maxnumf")
        b.free_nan = True
        r = rng.random()
        init = (_float_identity_literal(op, elt) if r < 0.6 else "-0.0" if r < 0.65
                else float_literal(rng, elt)[0])
    else:
        op = rng.choices(REDUCE_INT, [3, 2, 3, 3, 2, 2, 1, 1, 1])[0]
        init = str(_int_identity(op, elt)) if rng.random() < 0.6 else str(int_literal(rng, elt))
        if op in ("arith.addi", "arith.muli") and len(red) == rank and BITS[elt] <= 32:
            b.keys.add("int-sum-0d")
    t_out = tensor_type(out_shape, elt)
    if rng.random() < 0.2:
        cst = b.fresh("cst")
        b.emit(f"{cst} = arith.constant dense<{init}> : {t_out}")
        if init.startswith("0x"):
            b.keys.add("hex-dense")
        acc = Value(cst, out_shape, elt)
    else:
        acc = b.fill(rng, out_shape, elt, init)
    body = Body(b, rng, elt, [("%in", elt)], rank, depth)
    x = "%in"
    if rng.random() < 0.25 and depth > 0:  # a two-op body: f(x) folded
        x = body.expr(1)
    y = body.op(f"{op} {x}, %acc : {elt}" if rng.random() < 0.5 else f"{op} %acc, {x} : {elt}")
    its = ", ".join('"reduction"' if d in red else '"parallel"' for d in range(rank))
    r = b.fresh("red")
    b.emit(f"{r} = linalg.generic {{indexing_maps = [{amap(rank, [f'd{d}' for d in range(rank)])}, "
           f"{amap(rank, results)}], iterator_types = [{its}]}} ins({src.name} : {src.type}) "
           f"outs({acc.name} : {t_out}) {{")
    b.lines.append(f"  ^bb0(%in: {elt}, %acc: {elt}):")
    b.lines.extend(body.ops)
    b.lines.append(f"    linalg.yield {y} : {elt}")
    b.lines.append(f"  }} -> {t_out}")
    return Value(r, out_shape, elt)


def stage_cast(b: Builder, rng: random.Random, src: Value, depth: int) -> Value:
    dst = rng.choice([e for e in ELTS if e != src.elt])
    rank = len(src.shape)
    b.classes.add("cast")
    b.elts.add(dst)
    if is_float(src.elt) or is_float(dst):
        b.free_nan = True
    ident = amap(rank, [f"d{d}" for d in range(rank)])
    b.classes.add("elementwise")
    body = Body(b, rng, dst, [("%in0", src.elt)], rank, 0)
    y = body.cast("%in0", src.elt, dst)
    e = b.empty(src.shape, dst)
    t = tensor_type(src.shape, dst)
    its = ", ".join(['"parallel"'] * rank)
    r = b.fresh("cv")
    b.emit(f"{r} = linalg.generic {{indexing_maps = [{ident}, {ident}], iterator_types = [{its}]}} "
           f"ins({src.name} : {src.type}) outs({e} : {t}) {{")
    b.lines.append(f"  ^bb0(%in0: {src.elt}, %out: {dst}):")
    b.lines.extend(body.ops)
    b.lines.append(f"    linalg.yield {y} : {dst}")
    b.lines.append(f"  }} -> {t}")
    return Value(r, src.shape, dst)


def stage_named(b: Builder, rng: random.Random, src: Value, depth: int) -> Value:
    b.classes.add("named")
    rank = len(src.shape)
    r = rng.random()
    if rank >= 2 and r < 0.4:
        perm = list(range(rank))
        while perm == list(range(rank)):
            rng.shuffle(perm)
        shape = tuple(src.shape[p] for p in perm)
        e = b.empty(shape, src.elt)
        v = b.fresh("tr")
        b.emit(f"{v} = linalg.transpose ins({src.name} : {src.type}) outs({e} : "
               f"{tensor_type(shape, src.elt)}) permutation = [{', '.join(map(str, perm))}]")
        b.classes.add("permutation")
        return Value(v, shape, src.elt)
    if r < 0.8:
        kind = rng.choice(["add", "sub", "mul", "max", "min", "copy"])
        if kind in ("max", "min") and is_float(src.elt):
            b.keys.add("maxnumf")
        if is_float(src.elt) and kind != "copy":
            b.free_nan = True
        ins = [src] if kind == "copy" else [src, _source(b, rng, src.shape, src.elt)]
        e = b.empty(src.shape, src.elt)
        v = b.fresh("nm")
        b.emit(f"{v} = linalg.{kind} ins({', '.join(i.name for i in ins)} : "
               f"{', '.join(i.type for i in ins)}) outs({e} : {src.type}) -> {src.type}")
        return Value(v, src.shape, src.elt)
    # a fill consumed by an elementwise generic with the source
    lit = float_literal(rng, src.elt)[0] if is_float(src.elt) else str(int_literal(rng, src.elt))
    f = b.fill(rng, src.shape, src.elt, lit)
    ident = amap(rank, [f"d{d}" for d in range(rank)])
    return _generic(b, rng, [(src, ident), (f, ident)], src.shape, src.elt, max(depth, 1))


CONTRACT_TYPES = [("f32", "f32", "f32"), ("f16", "f16", "f32"), ("bf16", "bf16", "f32"),
                  ("f16", "f16", "f16"), ("i8", "i8", "i32"), ("i16", "i16", "i32"),
                  ("i32", "i32", "i32"), ("bf16", "bf16", "bf16")]


def stage_contraction(b: Builder, rng: random.Random, src: Value | None, last: bool) -> Value:
    """A matmul-like op on new inputs (float ones only as the last stage)."""
    b.classes.add("contraction")
    types = [t for t in CONTRACT_TYPES if last or not is_float(t[2])]
    ta, tb, tc = rng.choice(types)
    b.elts.update((ta, tb, tc))
    m, k, n = b.dim(rng), b.dim(rng), b.dim(rng)
    form = rng.choice(["matmul", "matmul", "batch_matmul", "matvec", "vecmat", "generic"])
    bt = rng.choice([1, 2, 3]) if form == "batch_matmul" else None
    if form == "matvec":
        sa, sb, sc = (m, k), (k,), (m,)
    elif form == "vecmat":
        sa, sb, sc = (k,), (k, n), (n,)
    elif form == "batch_matmul":
        sa, sb, sc = (bt, m, k), (bt, k, n), (bt, m, n)
    else:
        sa, sb, sc = (m, k), (k, n), (m, n)
    zero = "0.0" if is_float(tc) else "0"
    init = zero if rng.random() < 0.7 else (
        float_literal(rng, tc, special=False)[0] if is_float(tc) else str(int_literal(rng, tc)))
    if is_float(tc):  # operands of known values: the bound needs sum |a| |b| + |c|
        a, bb = b.arg(sa, ta, moderate=True), b.arg(sb, tb, moderate=True)
        if rng.random() < 0.9:
            acc = b.fill(rng, sc, tc, init)
            b.contraction_init = init
        else:
            acc = b.arg(sc, tc, moderate=True)
            b.contraction_init = None
        b.contraction_args = [len(b.args) - (3 if b.contraction_init is None else 2) + i
                              for i in range(3 if b.contraction_init is None else 2)]
    else:
        a = (src if src is not None and src.shape == sa and src.elt == ta
             else _source(b, rng, sa, ta))
        bb = _source(b, rng, sb, tb)
        acc = b.fill(rng, sc, tc, init) if rng.random() < 0.9 else _source(b, rng, sc, tc)
    tcs = tensor_type(sc, tc)
    v = b.fresh("mm")
    if form != "generic":
        b.emit(f"{v} = linalg.{form} ins({a.name}, {bb.name} : {a.type}, {bb.type}) "
               f"outs({acc.name} : {tcs}) -> {tcs}")
    else:
        maps = [amap(3, ["d0", "d2"]), amap(3, ["d2", "d1"]), amap(3, ["d0", "d1"])]
        b.emit(f"{v} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = "
               f'["parallel", "parallel", "reduction"]}} ins({a.name}, {bb.name} : {a.type}, '
               f"{bb.type}) outs({acc.name} : {tcs}) {{")
        b.lines.append(f"  ^bb0(%x: {ta}, %y: {tb}, %o: {tc}):")
        xs, ys = "%x", "%y"
        if ta != tc:
            ext = "extf" if is_float(tc) else "extsi"
            b.lines.append(f"    %xe = arith.{ext} %x : {ta} to {tc}")
            b.lines.append(f"    %ye = arith.{ext} %y : {tb} to {tc}")
            xs, ys = "%xe", "%ye"
        mul, add = ("mulf", "addf") if is_float(tc) else ("muli", "addi")
        b.lines.append(f"    %p = arith.{mul} {xs}, {ys} : {tc}")
        b.lines.append(f"    %s = arith.{add} %o, %p : {tc}")
        b.lines.append(f"    linalg.yield %s : {tc}")
        b.lines.append(f"  }} -> {tcs}")
    if is_float(tc):
        b.free_nan = True
    b.contraction_k = k
    b.contraction_elt = tc
    out = Value(v, sc, tc)
    if is_float(tc) and tc == "f32" and len(sc) == 2 and rng.random() < 0.5:
        out = _epilogue(b, rng, out)
    return out


def _epilogue(b: Builder, rng: random.Random, mm: Value) -> Value:
    """What torch-mlir puts after a matmul: a bias add (per column or full) and/or ReLU;
    1-Lipschitz, so the contraction bound holds with the bias in S (folded into TMATMUL's
    bias / acc by the lowering)."""
    rank = len(mm.shape)
    ident = amap(rank, ["d0", "d1"])
    e = b.empty(mm.shape, mm.elt)
    t = mm.type
    r = mm
    if rng.random() < 0.7:
        per_col = rng.random() < 0.7
        bias = b.arg((mm.shape[1],) if per_col else mm.shape, "f32", moderate=True)
        b.contraction_bias = len(b.args) - 1
        bmap = amap(rank, ["d1"]) if per_col else ident
        v = b.fresh("bias")
        b.emit(f"{v} = linalg.generic {{indexing_maps = [{ident}, {bmap}, {ident}], "
               f'iterator_types = ["parallel", "parallel"]}} ins({r.name}, {bias.name} : {t}, '
               f"{bias.type}) outs({e} : {t}) {{")
        b.lines.append("  ^bb0(%m: f32, %c: f32, %o: f32):")
        b.lines.append("    %s = arith.addf %m, %c : f32" if rng.random() < 0.5
                       else "    %s = arith.addf %c, %m : f32")
        b.lines.append("    linalg.yield %s : f32")
        b.lines.append(f"  }} -> {t}")
        r = Value(v, mm.shape, "f32")
    if rng.random() < 0.5 or r is mm:
        v = b.fresh("relu")
        z = b.fresh("zero")
        b.emit(f"{z} = arith.constant 0.000000e+00 : f32")
        b.emit(f'{v} = linalg.generic {{indexing_maps = [{ident}, {ident}], iterator_types = '
               f'["parallel", "parallel"]}} ins({r.name} : {t}) outs({e} : {t}) {{')
        b.lines.append("  ^bb0(%m: f32, %o: f32):")
        if rng.random() < 0.5:
            b.lines.append(f"    %s = arith.maximumf %m, {z} : f32")
        else:
            b.lines.append(f"    %c = arith.cmpf ugt, %m, {z} : f32")
            b.lines.append(f"    %s = arith.select %c, %m, {z} : f32")
        b.lines.append("    linalg.yield %s : f32")
        b.lines.append(f"  }} -> {t}")
        r = Value(v, mm.shape, "f32")
    b.classes.add("elementwise")
    return r


STAGES = {
    "elementwise": stage_elementwise,
    "reduction": stage_reduction,
    "cast": stage_cast,
    "named": stage_named,
}


def generate(seed: int, limits: Limits | None = None) -> Program:
    """The program of ``seed`` (deterministic), shrunk as ``limits`` says."""
    limits = limits or Limits()
    top = random.Random(seed)
    b = Builder(limits)
    nstages = top.choice([1, 1, 2, 2, 3])
    kinds = [top.choices(["elementwise", "reduction", "cast", "named", "contraction"],
                         [5, 3, 1.5, 1.5, 1.2])[0] for _ in range(nstages)]
    # a float contraction's result is compared within a bound: it must be the last stage
    if limits.stages is not None:
        kinds = kinds[: limits.stages]
    first = random.Random(f"{seed}/src")
    src: Value | None = None
    if kinds[0] != "contraction":
        src = b.arg(b.shape(first), first.choice(ELTS))
    contraction_last = False
    for i, kind in enumerate(kinds):
        rng = random.Random(f"{seed}/{i}")
        depth = limits.depth.get(i, rng.choice([1, 2, 2, 3]))
        last = i == len(kinds) - 1
        if kind == "contraction":
            src = stage_contraction(b, rng, src, last)
            contraction_last = last and is_float(src.elt)
        else:
            assert src is not None
            src = STAGES[kind](b, rng, src, depth)
        b.values.append(src)
    assert src is not None
    head = ", ".join(f"{a.name}: {a.elt if a.scalar else tensor_type(a.shape, a.elt)}"
                     for a in b.args)
    text = "\n".join([f"func.func @f({head}) -> {src.type} {{", *b.lines,
                      f"  return {src.name} : {src.type}", "}", ""])
    twin = None
    if b.constants:
        twin_head = ", ".join([head] * bool(head) + [f"%k{i}: {t}" for i, (_, _, t) in
                                                      enumerate(b.constants)])
        body = "\n".join(b.lines)
        for i, (name, _, _t) in enumerate(b.constants):
            body = "\n".join(line for line in body.split("\n")
                             if not line.startswith(f"  {name} = arith.constant dense"))
            body = _rename(body, name, f"%k{i}")
        twin = "\n".join([f"func.func @f({twin_head}) -> {src.type} {{", body,
                          f"  return {_rename(src.name, src.name, src.name)} : {src.type}", "}",
                          ""])
    opts = random.Random(f"{seed}/lower")
    lower_options = {}
    if opts.random() < 0.5:
        lower_options = {"tile_bytes": opts.choice([128, 256, 512, 1024, 4096]),
                         "pes": opts.choice([1, 2, 3, 4])}
    if text.count("linalg.generic") < 2:  # item 2 needs a producer fused into a consumer
        b.keys.discard("index")
    return Program(
        text=text, args=list(b.args), classes=set(b.classes), elts=set(b.elts),
        keys=set(b.keys), free_nan=b.free_nan, contraction=contraction_last,
        contraction_k=b.contraction_k, contraction_elt=b.contraction_elt,
        contraction_args=b.contraction_args, contraction_init=b.contraction_init,
        contraction_bias=b.contraction_bias, lower_options=lower_options,
        constants=[(n, v) for n, v, _ in b.constants], twin=twin, stages=len(kinds),
    )


def _rename(text: str, old: str, new: str) -> str:
    return re.sub(re.escape(old) + r"(?![\w$.])", new, text)


# ======================================================================================
# Inputs
# ======================================================================================


def make_inputs(args: list[Arg], seed: int) -> list[np.ndarray]:
    """Random inputs: about a third special values (NaN with payloads and sNaN, +-inf,
    +-0, subnormals, the extremes) for floats, extremes and small values for integers."""
    rng = np.random.default_rng(seed)
    return [moderate_array(rng, a.shape, a.elt) if a.moderate else random_array(rng, a.shape, a.elt)
            for a in args]


def moderate_array(rng: np.random.Generator, shape: tuple[int, ...], elt: str) -> np.ndarray:
    n = int(np.prod(shape, dtype=np.int64))
    mag = np.exp2(rng.integers(-3, 3, n)) * rng.uniform(1, 2, n)
    vals = np.where(rng.random(n) < 0.5, -mag, mag)
    vals = np.where(rng.random(n) < 0.2, rng.integers(-3, 4, n), vals)
    special = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0])
    pick = rng.random(n) < 0.05
    vals[pick] = special[rng.integers(0, len(special), int(pick.sum()))]
    return vals.astype(np.float32).astype(NP_DTYPE[elt]).reshape(shape)


def random_array(rng: np.random.Generator, shape: tuple[int, ...], elt: str) -> np.ndarray:
    n = int(np.prod(shape, dtype=np.int64))
    dt = NP_DTYPE[elt]
    if is_float(elt):
        mag = np.exp2(rng.integers(-12, 12, n)) * rng.uniform(1, 2, n)
        vals = np.where(rng.random(n) < 0.5, -mag, mag)
        small = rng.integers(-4, 5, n).astype(np.float64)
        vals = np.where(rng.random(n) < 0.3, small, vals)
        out = vals.astype(np.float32).astype(dt)
        special = np.array(SPECIAL_BITS[elt], dtype=f"u{BITS[elt] // 8}").view(dt)
        pick = rng.random(n) < 0.3
        out[pick] = special[rng.integers(0, len(special), int(pick.sum()))]
        return out.reshape(shape)
    info = np.iinfo(dt)
    vals = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    small = rng.integers(-9, 10, n).astype(dt)
    vals = np.where(rng.random(n) < 0.4, small, vals)
    ext = np.array([info.min, info.max, 0, -1, 1], dtype=dt)
    pick = rng.random(n) < 0.2
    vals[pick] = ext[rng.integers(0, len(ext), int(pick.sum()))]
    return vals.reshape(shape).astype(dt)


def quiet_snans(arrays: list[np.ndarray]) -> list[np.ndarray]:
    """The inputs with every signalling NaN made quiet (its quiet bit set)."""
    out = []
    for a in arrays:
        if a.dtype.kind in "iu" or a.dtype == np.bool_:
            out.append(a)
            continue
        w = a.dtype.itemsize * 8
        u = a.view(f"u{w // 8}").copy()
        mant = {16: 10 if a.dtype == np.float16 else 7, 32: 23}[w]
        exp_mask = ((1 << (w - 1)) - 1) & ~((1 << mant) - 1)
        frac = u & ((1 << mant) - 1)
        snan = ((u & exp_mask) == exp_mask) & (frac != 0) & ((frac >> (mant - 1)) == 0)
        u[snan] |= 1 << (mant - 1)
        out.append(u.view(a.dtype))
    return out

