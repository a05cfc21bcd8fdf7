#!/usr/bin/env python3
"""Runs every tests/test_*.py with unittest and closes with `N passed, N failed` (`, N skipped`)."""

import os
import sys
import unittest

here = os.path.dirname(os.path.abspath(__file__))
suite = unittest.defaultTestLoader.discover(here, pattern="test_*.py", top_level_dir=here)
result = unittest.TextTestRunner(verbosity=int(os.environ.get("LASTRO_TEST_VERBOSITY", "1"))).run(suite)
failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
passed = result.testsRun - failed - len(result.skipped) - len(result.expectedFailures)
line = f"{passed} passed, {failed} failed"
if result.skipped:
    line += f", {len(result.skipped)} skipped"
sys.stderr.flush()
print(line, flush=True)
sys.exit(0 if failed == 0 and result.testsRun > 0 else 1)
