"""pto_dialect/upstream"""
