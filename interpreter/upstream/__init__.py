"""interpreter/upstream"""
