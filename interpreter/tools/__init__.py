"""interpreter/tools"""
