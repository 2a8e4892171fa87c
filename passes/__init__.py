"""Passes and targets over PTO IR (every pass name contains ``pto``).

``get_all_passes`` and ``get_all_targets`` are the registries the ``pto-opt`` tool and the
xDSL plugin read; each entry imports its module lazily.
"""

from __future__ import annotations

from collections.abc import Callable


def _convert_linalg_to_pto():
    from passes.convert_linalg_to_pto import ConvertLinalgToPtoPass

    return ConvertLinalgToPtoPass


def _pto_tile_to_capacity():
    from passes.pto_tile_to_capacity import PtoTileToCapacityPass

    return PtoTileToCapacityPass


def _pto_lowering_report():
    from passes.lowering.report import PTOLoweringReportPass

    return PTOLoweringReportPass


def _pto_lower():
    from passes.pto_lower import PTOLowerPass

    return PTOLowerPass


def _pto_fuse_elementwise():
    from passes.lowering.fusion import PTOFuseElementwisePass

    return PTOFuseElementwisePass


def _pto_quantize_mx():
    from passes.pto_quantize_mx import PtoQuantizeMxPass

    return PtoQuantizeMxPass


def get_all_passes() -> dict[str, Callable[[], type]]:
    """Pass name -> factory returning the pass class."""
    return {
        "convert-linalg-to-pto": _convert_linalg_to_pto,
        "pto-tile-to-capacity": _pto_tile_to_capacity,
        "pto-lower": _pto_lower,
        "pto-form-bundles": _pto_form_bundles,
        "pto-assign-registers": _pto_assign_registers,
        "pto-lowering-report": _pto_lowering_report,
        "pto-quantize-mx": _pto_quantize_mx,
        "pto-fuse-elementwise": _pto_fuse_elementwise,
    }


def _pto_target(name: str):
    def factory():
        from passes.pto_targets import PTOAsmTarget, PTOBinTarget

        return {"pto-asm": PTOAsmTarget, "pto-bin": PTOBinTarget}[name]

    return factory


def _pto_frontend(key: str):
    def factory():
        from passes.pto_targets import FRONTENDS

        return FRONTENDS[key]

    return factory


def _pto_form_bundles():
    from passes.pto_form_bundles import PTOFormBundlesPass

    return PTOFormBundlesPass


def _pto_assign_registers():
    from passes.pto_assign_registers import PTOAssignRegistersPass

    return PTOAssignRegistersPass


def get_all_targets() -> dict[str, Callable[[], type]]:
    """Target name -> factory returning the xDSL ``Target`` class."""
    return {"pto-asm": _pto_target("pto-asm"), "pto-bin": _pto_target("pto-bin")}


def get_all_frontends() -> dict[str, Callable[[], type]]:
    """Frontend key (``-f`` name or input file extension) -> factory of the ``Frontend``."""
    return {k: _pto_frontend(k) for k in ("pto-asm", "pto-bin", "s", "hex")}
