"""The pytest fixture that every Python suite of tests/ (python, sweep) shares: the murmur program."""
import os

import pytest


@pytest.fixture(scope="session")
def murmur_exe():
    """The path of the murmur program, from MURMUR_EXE (CTest sets it)."""
    exe = os.environ.get("MURMUR_EXE")
    if not exe:
        pytest.fail("MURMUR_EXE is not set: the path of the murmur program (CTest sets it)")
    if not os.access(exe, os.X_OK):
        pytest.fail(f"MURMUR_EXE={exe} is not an executable")
    return exe
