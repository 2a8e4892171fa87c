"""Numpy interpreter for PTO programs and the linalg-like programs they come from."""
