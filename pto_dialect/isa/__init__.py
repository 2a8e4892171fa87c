"""pto_dialect/isa"""
