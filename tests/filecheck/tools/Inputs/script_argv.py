"""A script for lit_fork_server_python.test: prints what ``python SCRIPT ARGS`` must give it."""

import sys

if sys.argv[1:] == ["fail"]:
    sys.exit("MISMATCH on purpose")
print(f"argv={sys.argv[1:]} path0={sys.path[0]} name={__name__}")
