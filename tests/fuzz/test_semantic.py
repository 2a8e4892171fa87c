"""The semantic fuzzer of the lowering (issue 23) on a small seeded budget, and its oracle.

``make test`` runs 12 programs (``make fuzz-semantic`` runs 5,000); the comparison policy is
checked on hand-made results so that a broken oracle cannot pass silently.
"""

from __future__ import annotations

import numpy as np

from interpreter.ssa.runner import parse_module_text
from tests.fuzz import semantic
from tests.fuzz.programs import Limits, Program, generate, make_inputs, quiet_snans

BUDGET = 12


def test_small_campaign_finds_no_mismatch():
    lines: list[str] = []
    result = semantic.campaign(BUDGET, seed=7, out_dir=None, log=lines.append)
    assert not result["findings"], "\n".join(lines)
    assert sum(result["outcomes"].values()) == BUDGET
    assert result["outcomes"]["ok"] + result["outcomes"]["ok-partial"] >= BUDGET // 2


def test_generator_is_deterministic_and_programs_verify():
    for seed in range(40):
        p = generate(seed)
        assert p.text == generate(seed).text
        parse_module_text(p.text).verify()
        if p.twin:
            parse_module_text(p.twin).verify()
        inputs = make_inputs(p.args, seed)
        assert all(a.shape == arg.shape for a, arg in zip(inputs, p.args, strict=True))


def test_minimising_limits_shrink_a_program():
    p = generate(11, Limits(stages=1, depth={0: 0}, max_dim=2))
    assert p.stages == 1 and all(max(a.shape, default=1) <= 2 for a in p.args)


def _prog(**kw) -> Program:
    return Program(text="", args=[], **kw)


def test_compare_is_bit_exact_unless_the_payload_is_free():
    a = np.array([0x7FC00001, 0x80000000, 0x3F800000], dtype=np.uint32).view(np.float32)
    b = np.array([0x7FC00000, 0x80000000, 0x3F800000], dtype=np.uint32).view(np.float32)
    assert semantic.compare(a, b, _prog(free_nan=True), []) is None
    assert "differ" in semantic.compare(a, b, _prog(free_nan=False), [])
    zero = np.array([0x00000000, 0x80000000, 0x3F800000], dtype=np.uint32).view(np.float32)
    assert "differ" in semantic.compare(b, zero, _prog(free_nan=True), [])  # -0 is not +0
    ints = np.array([1, 2, 3], dtype=np.int16)
    assert "differ" in semantic.compare(ints, ints + np.int16(1), _prog(), [])


def test_contraction_bound():
    a = np.ones((2, 4), dtype=np.float32)
    b = np.full((4, 3), 0.5, dtype=np.float32)
    p = _prog(contraction=True, contraction_k=4, contraction_args=[0, 1], contraction_init="0.0")
    ref = np.full((2, 3), 2.0, dtype=np.float32)
    near = np.nextafter(ref, np.float32(3))  # one ulp: within (2K + 2) u S
    assert semantic.compare(ref, near, p, [a, b]) is None
    far = ref * np.float32(1.001)
    assert "bound" in semantic.compare(ref, far, p, [a, b])
    nan = ref.copy()
    nan[0, 0] = np.nan
    assert "bound" in semantic.compare(ref, nan, p, [a, b])


def test_quiet_snans():
    x = np.array([0x7F800001, 0x7FC00000, 0x3F800000], dtype=np.uint32).view(np.float32)
    q = quiet_snans([x])[0].view(np.uint32)
    assert q.tolist() == [0x7FC00001, 0x7FC00000, 0x3F800000]
    h = np.array([0x7C01, 0xFC00], dtype=np.uint16).view(np.float16)
    assert quiet_snans([h])[0].view(np.uint16).tolist() == [0x7E01, 0xFC00]
