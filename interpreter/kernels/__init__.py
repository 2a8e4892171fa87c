"""interpreter/kernels"""
