"""AVS pass conditions of the scalar block starts (block/encoding/C.BSTART*, the 32-bit
block/execution/BSTART.STD, .FP, .SYS, .CALL, .ICALL), XB (block/encoding/XB, reserved in PTO)
and B.CATR (block/attributes/B.CATR), through our public API (D17): the decoder and assembler
(``pto_dialect.isa``), the tile-block checker (``isa.check_block``) and the block-control
state model (``interpreter.machine.block_control.BlockControl``).

The C.BSTART and 32-bit STD/FP/SYS forms open scalar (Standard, Floating, System) blocks: what the AVS tests check
is their decode, their BrType legality and the BARG / PC state a start installs, which
``BlockControl`` models from the ASL's start / begin / commit functions; no scalar body runs.
"""

from __future__ import annotations

import pytest

from conformance.inventory import avs
from conformance.test_avs_block import kind
from interpreter.machine.arch import new_block_control
from interpreter.machine.block_control import (
    BUNDLE_CONTROL,
    BUNDLE_POST_COMMIT,
    ILLEGAL_INSTRUCTION,
    BlockControl,
)
from pto_dialect.faults import PTOFault
from pto_dialect.isa import (
    SCALAR_START_TYPES,
    XB,
    BCatr,
    BlockKind,
    BStartCall,
    BStartFp,
    BStartICall,
    BStartLong,
    BStartStd,
    BStartSys,
    CBStart,
    CBStartFp,
    CBStartStd,
    CBStartSys,
    CBStop,
    Transfer,
    check_block,
    decode,
    encode,
    parse_command,
    parse_program,
    print_command,
)


def _start(word: int):
    """Decode a 16-bit word as a block start, re-encode and re-print it (a start is a
    ScalarStart: the command class the block-control model executes as a block start)."""
    cmd = decode(word, 16, strict=True)
    assert isinstance(cmd, SCALAR_START_TYPES), (hex(word), cmd)
    assert encode(cmd) == word
    assert parse_command(print_command(cmd)) == cmd
    return cmd


@avs("PTO-AVS-BLOCK-C-BSTART-DECODE-001")
def test_c_bstart_decode():
    # low nibble 4 = COND, 2 = DIRECT, simm12 in bits 15:4
    cond, direct = _start(0x0004), _start(0x0002)
    assert cond == CBStart(1, 0) and cond.transfer is Transfer.COND
    assert direct == CBStart(0, 0) and direct.transfer is Transfer.DIRECT
    assert cond.kind is direct.kind is BlockKind.STD


@avs("PTO-AVS-BLOCK-C-BSTART-FP-DECODE-001", "PTO-AVS-BLOCK-C-BSTART-STD-DECODE-001",
     "PTO-AVS-BLOCK-C-BSTART-SYS-DECODE-001")  # fmt: skip
def test_c_bstart_std_fp_sys_decode():
    fp, std, sys_ = _start(0x0880), _start(0x0800), _start(0x0840)
    assert (type(fp), type(std), type(sys_)) == (CBStartFp, CBStartStd, CBStartSys)
    assert (fp.kind, std.kind, sys_.kind) == (BlockKind.FP, BlockKind.STD, BlockKind.SYS)
    assert print_command(fp) == "C.BSTART.FP FALL" and print_command(sys_) == "C.BSTART.SYS FALL"


def _run(pc: int, word: int, **state) -> tuple[BlockControl, bool]:
    c = new_block_control(pc, **state)
    return c, c.execute_word(word, 16)


@avs("PTO-AVS-BLOCK-C-BSTART-TARGET-001")
def test_c_bstart_target():
    c, ok = _run(0x100, 0x0012)  # DIRECT, simm12 = 1
    assert ok and c.barg.kind is BlockKind.STD and c.barg.transfer is Transfer.DIRECT
    assert c.barg.taken and c.barg.bpcn == 0x102
    c, ok = _run(0x200, 0xFFF4)  # COND, simm12 = -1
    assert ok and c.barg.transfer is Transfer.COND and not c.barg.taken
    assert c.barg.bpcn == 0x1FE
    # the target is P + (SignExtend(simm12) << 1)
    assert 0x300 + CBStart(0, 1).displacement == 0x302
    assert 0x300 + CBStart(0, 0xFFF).displacement == 0x2FE


@avs("PTO-AVS-BLOCK-C-BSTART-FP-BRTYPE-001", "PTO-AVS-BLOCK-C-BSTART-STD-BRTYPE-001")
@pytest.mark.parametrize("base, kind", [(0x0880, BlockKind.FP), (0x0800, BlockKind.STD)])
def test_c_bstart_brtype(base, kind):
    fp_or_std = base & ~0x3800
    # FALL: a sequential BARG whose candidate is the next halfword
    c, ok = _run(0x100, fp_or_std | 1 << 11)
    assert ok and c.barg.kind is kind and c.barg.transfer is Transfer.FALL
    assert c.barg.bpcn == 0x102
    # IND: snapshots the retiring Standard block's BPCN (a DIRECT start at 0x200 to 0x440)
    c = new_block_control(0x200)
    assert c.execute(CBStart(0, (0x440 - 0x200) // 2))
    assert c.execute_word(fp_or_std | 5 << 11, 16)
    assert c.barg.kind is kind and c.barg.transfer is Transfer.IND and c.barg.bpcn == 0x440
    assert c.bpc == 0x202
    # RET: the architectural return address
    c, ok = _run(0x300, fp_or_std | 7 << 11, return_address=0x520)
    assert ok and c.barg.kind is kind and c.barg.transfer is Transfer.RET
    assert c.barg.bpcn == 0x520
    assert {code: decode(fp_or_std | code << 11, 16).transfer for code in (1, 5, 7)} == {
        1: Transfer.FALL, 5: Transfer.IND, 7: Transfer.RET}  # fmt: skip


@avs("PTO-AVS-BLOCK-C-BSTART-FP-IND-SOURCE-001", "PTO-AVS-BLOCK-C-BSTART-STD-IND-SOURCE-001")
@pytest.mark.parametrize("word", [0x2880, 0x2800])
def test_c_bstart_ind_needs_retiring_barg(word):
    c, ok = _run(0x900, word)
    assert not ok and c.last_fault == BUNDLE_CONTROL
    assert c.tpc == 0x900 and not c.active
    # a retiring System block has no BPCN either
    c = new_block_control(0x900)
    assert c.execute(CBStartSys())
    assert not c.execute_word(word, 16) and c.last_fault == BUNDLE_CONTROL
    assert c.barg.kind is BlockKind.SYS and c.bpc == 0x900


@avs("PTO-AVS-BLOCK-C-BSTART-FP-RSVD-001", "PTO-AVS-BLOCK-C-BSTART-STD-RSVD-001")
@pytest.mark.parametrize("base, codes", [(0x0080, (0, 2, 3, 4, 6)), (0x0000, (2, 3, 4, 6))])
def test_c_bstart_reserved_brtype(base, codes):
    for code in codes:
        word = base | code << 11
        with pytest.raises(PTOFault) as e:
            decode(word, 16, strict=True)
        assert e.value.kind == "IllegalInstruction"
        c, ok = _run(0x600, word)
        assert not ok and c.last_fault == ILLEGAL_INSTRUCTION and not c.active
    # STD BrType 0 is the C.BSTOP word, not a reserved start
    assert decode(0x0000, 16) == CBStop()


@avs("PTO-AVS-BLOCK-C-BSTART-SYS-STATE-001")
def test_c_bstart_sys_state():
    c, ok = _run(0x800, 0x0840)
    assert ok and c.active and c.bpc == 0x800 and c.tpc == 0x802
    assert c.barg.kind is BlockKind.SYS and c.barg.transfer is Transfer.FALL
    assert not c.barg.taken and c.barg.bpcn == 0
    # every word one bit away is another instruction or illegal, never C.BSTART.SYS
    for bit in range(1, 16):
        try:
            other = decode(0x0840 ^ 1 << bit, 16)
        except PTOFault as e:
            assert e.kind == "IllegalInstruction"
            continue
        assert not isinstance(other, CBStartSys)


# -- 32-bit BSTART.STD / BSTART.FP / BSTART.SYS ---------------------------------------------


@avs("PTO-AVS-BLOCK-BSTART-STD-DECODE-001", "PTO-AVS-BLOCK-BSTART-FP-DECODE-001",
     "PTO-AVS-BLOCK-BSTART-SYS-DECODE-001")  # fmt: skip
def test_bstart32_decode():
    # bits 11:0 select the kind, bits 14:12 the transfer (one catalog form each)
    want = {1: Transfer.FALL, 2: Transfer.DIRECT, 3: Transfer.COND, 5: Transfer.IND,
            7: Transfer.RET}  # fmt: skip
    for low, cls in ((0x001, BStartStd), (0x101, BStartFp)):
        for code, transfer in want.items():
            word = code << 12 | low
            cmd = decode(word, 32, strict=True)
            assert type(cmd) is cls and cmd.transfer is transfer and encode(cmd) == word
            assert parse_command(print_command(cmd)) == cmd
    sys_ = decode(0x00001081, 32, strict=True)
    assert sys_ == BStartSys() and sys_.kind is BlockKind.SYS and encode(sys_) == 0x1081


@avs("PTO-AVS-BLOCK-BSTART-STD-DELETED-001", "PTO-AVS-BLOCK-BSTART-FP-DELETED-001")
@pytest.mark.parametrize("low", [0x001, 0x101])
def test_bstart32_deleted_call_forms(low):
    for code in (4, 6):  # the former bare CALL / ICALL words
        c = new_block_control(0x600, return_address=0x700)
        c.bpc = 0x580
        assert not c.execute_word(code << 12 | low, 32)
        assert c.last_fault == ILLEGAL_INSTRUCTION and not c.active
        assert c.bpc == 0x580 and c.return_address == 0x700 and c.tpc == 0x600


@avs("PTO-AVS-BLOCK-BSTART-STD-STATE-001", "PTO-AVS-BLOCK-BSTART-FP-STATE-001")
@pytest.mark.parametrize("low, kind", [(0x001, BlockKind.STD), (0x101, BlockKind.FP)])
def test_bstart32_barg_and_commit(low, kind):
    c = new_block_control(0x100)  # DIRECT, simm17 = 1
    assert c.execute_word(0xA000 | low, 32)
    assert c.bpc == 0x100 and c.tpc == 0x104 and c.barg.kind is kind
    assert c.barg.transfer is Transfer.DIRECT and c.barg.taken and c.barg.bpcn == 0x102
    assert c.execute_word(0x00000001, 32) and c.tpc == 0x102  # BSTOP selects BPCN
    c = new_block_control(0x200)  # COND, simm17 = 1, not taken
    assert c.execute_word(0xB000 | low, 32)
    assert c.barg.kind is kind and c.barg.transfer is Transfer.COND and not c.barg.taken
    assert c.barg.bpcn == 0x202
    assert c.execute_word(0x00000001, 32) and c.tpc == 0x208  # sequential after BSTOP
    c = new_block_control(0x300)
    assert c.execute_word(0x1000 | low, 32)
    assert c.barg.transfer is Transfer.FALL and c.barg.bpcn == 0x304
    c = new_block_control(0x400)  # a retiring block of the other kind, DIRECT to 0x440
    other = BStartFp if kind is BlockKind.STD else BStartStd
    assert c.execute(other(2, (0x440 - 0x400) // 2))
    assert c.execute_word(0x5000 | low, 32)
    assert c.barg.transfer is Transfer.IND and c.barg.bpcn == 0x440
    c = new_block_control(0x500, return_address=0x520)
    assert c.execute_word(0x7000 | low, 32)
    assert c.barg.transfer is Transfer.RET and c.barg.bpcn == 0x520


@avs("PTO-AVS-BLOCK-BSTART-SYS-RESERVED-001")
def test_bstart_sys_reserved_payload():
    for word in (0x00009081, 0xFFFF9081):  # simm17 = 1 and -1
        with pytest.raises(PTOFault) as e:
            decode(word, 32, strict=True)
        assert e.value.kind == "IllegalInstruction"
        c = new_block_control(0x600)
        c.bpc = 0x580
        assert not c.execute_word(word, 32) and c.last_fault == ILLEGAL_INSTRUCTION
        assert not c.active and c.bpc == 0x580 and c.tpc == 0x600


@avs("PTO-AVS-BLOCK-BSTART-SYS-STATE-001")
def test_bstart_sys_state():
    c = new_block_control(0x100)
    assert c.execute_word(0x00001081, 32)
    assert c.bpc == 0x100 and c.tpc == 0x104 and c.barg.kind is BlockKind.SYS
    assert c.barg.transfer is Transfer.FALL and not c.barg.taken and c.barg.bpcn == 0
    assert c.execute_word(0x00000001, 32) and c.tpc == 0x108


# -- the fused calls BSTART.CALL / BSTART.ICALL ------------------------------------------------

CALL, ICALL = 0x50160002, 0x50166001


@avs("PTO-AVS-BLOCK-BSTART-CALL-DECODE-001", "PTO-AVS-BLOCK-BSTART-ICALL-DECODE-001")
def test_call_decode():
    call, icall = decode(CALL, 32, strict=True), decode(ICALL, 32, strict=True)
    assert call == BStartCall(0, 0) and icall == BStartICall(0)
    assert (encode(call), encode(icall)) == (CALL, ICALL)
    for cmd in (call, icall):
        assert isinstance(cmd, SCALAR_START_TYPES) and cmd.kind is BlockKind.STD
        assert parse_command(print_command(cmd)) == cmd


@avs("PTO-AVS-BLOCK-BSTART-CALL-FUSED-FORMS-001")
def test_call_fused_forms_only():
    assert decode(CALL, 32).transfer is Transfer.CALL
    assert decode(ICALL, 32).transfer is Transfer.ICALL
    for bare in (0x00004101, 0x00006101, 0x00004001, 0x00006001):
        with pytest.raises(PTOFault) as e:
            decode(bare, 32)
        assert e.value.kind == "IllegalInstruction"


@avs("PTO-AVS-BLOCK-BSTART-ICALL-STANDALONE-REJECT-001")
def test_icall_halfwords_are_not_standalone():
    for pc, half in ((0x100, 0x3000), (0x200, 0x3080)):  # C.BSTART.STD / .FP BrType 6
        c, ok = _run(pc, half)
        assert not ok and c.last_fault == ILLEGAL_INSTRUCTION and not c.active
    assert decode(ICALL, 32, strict=True).transfer is Transfer.ICALL


@avs("PTO-AVS-BLOCK-BSTART-CALL-ATOMIC-001")
def test_call_targets():
    c = new_block_control(0x400)
    assert c.execute_word(CALL | 0xFFF << 4 | 3 << 22, 32)  # simm12 = -1, uimm5 = 3
    assert c.bpc == 0x400 and c.tpc == 0x404 and c.return_address == 0x408
    assert c.barg.bpcn == 0x3FE and c.barg.transfer is Transfer.CALL
    assert c.complete(0x480) and c.tpc == 0x3FE  # the target is entered only at commit


@avs("PTO-AVS-BLOCK-BSTART-ICALL-BARG-001")
def test_icall_snapshots_the_retiring_bpcn():
    c = new_block_control(0x500)
    assert c.execute(BStartLong(0, 8))  # BSTART DIRECT to 0x510
    assert c.execute_word(ICALL | 2 << 22, 32)
    assert c.return_address == 0x50A and c.barg.bpcn == 0x510
    assert c.barg.transfer is Transfer.ICALL
    assert c.complete(0x580) and c.tpc == 0x510


@avs("PTO-AVS-BLOCK-BSTART-ICALL-SYS-SOURCE-001")
def test_icall_from_a_system_block():
    c = new_block_control(0x600, return_address=0xBEEF)
    assert c.execute(BStartSys()) and c.tpc == 0x604
    assert not c.execute_word(ICALL, 32) and c.last_fault == BUNDLE_CONTROL
    assert c.return_address == 0xBEEF and c.tpc == 0x604 and c.active
    assert c.barg.kind is BlockKind.SYS and c.barg.bpcn == 0


@avs("PTO-AVS-BLOCK-BSTART-CALL-ROLLBACK-001", "PTO-AVS-BLOCK-BSTART-ICALL-ROLLBACK-001")
@pytest.mark.parametrize("word, pc, target, ra", [(CALL, 0x400, 0x600, 0xDEAD),
                                                  (ICALL, 0x500, 0x700, 0xBEEF)])  # fmt: skip
def test_call_rollback_keeps_ra_and_barg(word, pc, target, ra):
    """A Standard DIRECT block at ``pc`` whose retiring operation cannot commit (a FixedPoint
    operation: IllegalInstruction at its commit, asl/block/model/commit/validation.asl): the
    fused call is rejected, ra keeps its old value, the live BARG is the retiring one, and
    the trap context saved in ACR0 holds the retiring block's BPC and BARG."""
    c = new_block_control(pc, return_address=ra)
    assert c.execute(BStartStd(2, (target - pc) // 2)) and c.tpc == pc + 4
    c.fixed_point_operation = True  # the ASL test installs the descriptor directly
    assert not c.execute_word(word, 32) and c.last_fault == ILLEGAL_INSTRUCTION
    assert c.return_address == ra and c.barg.bpcn == target
    assert c.barg.transfer is Transfer.DIRECT and c.active and c.bpc == pc
    assert c.arch.acr == 0
    saved = c.arch.trap_contexts[0]
    assert saved.valid and saved.bpc == pc and saved.tpc == pc + 4
    assert saved.barg.bpcn == target and saved.barg.transfer is Transfer.DIRECT
    assert saved.return_address == ra
    # the same rollback when the retiring commit fails through B.CATR DR (BundleControl)
    c = new_block_control(pc, return_address=ra)
    assert c.execute(BStartStd(2, (target - pc) // 2)) and c.execute(BCatr(dr=1))
    barg = c.barg
    assert not c.execute_word(word, 32) and c.last_fault == BUNDLE_CONTROL
    assert c.return_address == ra and c.barg == barg and c.arch.trap_contexts[0].barg == barg


# -- XB: reserved in PTO -------------------------------------------------------------------


@avs("PTO-AVS-BLOCK-XB-DECODE-001")
def test_xb_decodes_to_its_form():
    cmd = decode(0x00006F81, 32)
    assert cmd == XB(0, 0) and encode(cmd) == 0x6F81
    assert parse_command(print_command(cmd)) == cmd
    with pytest.raises(PTOFault) as e:  # the handler is unsupported in PTO
        decode(0x00006F81, 32, strict=True)
    assert e.value.kind == "IllegalInstruction"


@avs("PTO-AVS-BLOCK-XB-RSVD-001")
@pytest.mark.parametrize("word", [0x00006F81, 0xFFFFEF81])
def test_xb_rejects_before_effects(word):
    assert decode(word, 32) == XB((word >> 15) & 0x3FF, word >> 25)
    c = new_block_control(0x240, return_address=0x520)
    assert c.execute_word(0x3880, 16)  # an active Floating RET block
    barg, tpc = c.barg, c.tpc
    assert not c.execute_word(word, 32) and c.last_fault == ILLEGAL_INSTRUCTION
    assert c.tpc == tpc and c.barg == barg and c.barg.transfer is Transfer.RET


# -- B.CATR ----------------------------------------------------------------------------------

TREM = """BSTART.SFU TREM, S32
{catr}C.B.DIMI 4, ->lb0
B.IOT t#1, t#2, mask=1111, last, ->t<128B>
BSTOP
"""
MATMUL = """BSTART.TMATMUL FP16
{catr}B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
B.IOT t#1, t#2, mask=1111, last, ->m<128B>
BSTOP
"""


@avs("PTO-AVS-BLOCK-B-CATR-DECODE-001")
def test_b_catr_decode():
    cmd = decode(0x00000023, 32, strict=True)
    assert cmd == BCatr() and encode(cmd) == 0x23
    assert print_command(cmd) == "B.CATR {}"
    # its handler latches the block control attributes in a header
    assert check_block(parse_program(TREM.format(catr="B.CATR {}\n"))).catr == BCatr()


@avs("PTO-AVS-BLOCK-B-CATR-FIELDS-001")
def test_b_catr_fields():
    word = 0x00000023 | 1 << 26 | 0b11111 << 15
    cmd = decode(word, 32, strict=True)
    assert cmd == BCatr(dr=1, trap=1, far=1, atom=1, aq=1, rl=1)
    # each bit alone sets exactly its own field
    names = {26: "dr", 19: "trap", 18: "far", 17: "atom", 16: "aq", 15: "rl"}
    for bit, name in names.items():
        one = decode(0x23 | 1 << bit, 32)
        assert {n for n in names.values() if getattr(one, n)} == {name}
    c = new_block_control(0x100)
    assert c.execute(CBStartStd(1)) and c.execute(cmd) and c.catr == cmd
    summary = check_block(parse_program(TREM.format(catr=print_command(cmd) + "\n")))
    assert summary.catr == cmd


@avs("PTO-AVS-BLOCK-B-CATR-DUPLICATE-001")
def test_b_catr_duplicate():
    c = new_block_control(0x100)
    assert c.execute(CBStartStd(1)) and c.execute_word(0x00008023, 32)
    assert c.catr.rl
    assert not c.execute_word(0x00010023, 32) and c.last_fault == BUNDLE_CONTROL
    assert c.catr.rl and not c.catr.aq
    assert kind(TREM.format(catr="B.CATR {rl}\nB.CATR {aq}\n")) == "BundleControl"


@avs("PTO-AVS-BLOCK-B-CATR-PLACEMENT-001")
def test_b_catr_placement():
    c = new_block_control(0x100)
    assert not c.execute_word(0x00008023, 32) and c.last_fault == BUNDLE_CONTROL
    assert c.catr is None
    c = new_block_control(0x200)
    assert c.execute(CBStartStd(1)) and c.enter_body()
    assert not c.execute_word(0x00008023, 32) and c.last_fault == BUNDLE_CONTROL
    assert c.catr is None
    assert kind("B.CATR {rl}\n" + TREM.format(catr="")) == "BundleControl"
    assert kind(TREM.format(catr="") + "B.CATR {rl}\n") == "BundleControl"


@avs("PTO-AVS-BLOCK-B-CATR-DR-ENGINE-001")
def test_b_catr_dr_engine():
    assert kind(MATMUL.format(catr="B.CATR {dr}\n")) == "BundleControl"
    assert kind(MATMUL.format(catr="")) is None
    assert kind(TREM.format(catr="B.CATR {dr}\n")) is None
    load = "BSTART.TLOAD FP32\nB.CATR {dr}\nC.B.DIMI 8, ->lb0\nC.B.DIMI 2, ->lb1\n" \
        "B.IOR [a0, a1, zero], ->zero\nB.IOT mask=1111, last, ->t<128B>\nBSTOP\n"
    assert kind(load) is None
    # a non-tile block: rejected at its commit, which leaves it active
    c = new_block_control(0x100)
    assert c.execute(CBStartStd(1)) and c.execute(BCatr(dr=1))
    assert not c.complete(0x104) and c.last_fault == BUNDLE_CONTROL and c.active


@avs("PTO-AVS-BLOCK-B-CATR-POST-TRAP-001")
def test_b_catr_post_trap():
    """The commit succeeds, then traps: the trap context saved in the current ring is the
    clean post-commit state (no active block, no B.CATR) resuming the selected continuation."""
    c = new_block_control(0x100)
    assert c.execute(CBStartStd(1)) and c.execute(BCatr(trap=1))
    assert not c.complete(0x104) and c.last_fault == BUNDLE_POST_COMMIT
    assert not c.active and c.tpc == 0x104
    ring = c.arch.acr
    saved = c.arch.trap_contexts[ring]
    assert saved.valid and saved.tpc == 0x104
    assert not saved.bundle_active and saved.control_attributes is None
    assert c.arch.banks[ring].number == 5 and c.arch.fault_address == 0x104
    c.tpc = 0x9000  # wherever the handler ran
    assert c.arch.recover_trap_context(ring) and c.tpc == 0x104 and not c.active
    assert not c.arch.trap_contexts[ring].valid
    # without trap the same commit succeeds and raises nothing
    c = new_block_control(0x100)
    assert c.execute(CBStartStd(1)) and c.complete(0x104) and c.last_fault is None
    assert not c.arch.trap_contexts[0].valid
