"""brv_vc.digest hashes a 100-entry commit's ~0.9 MB without hashlib; past 1 MB it loads OpenSSL's (not hashlib.py)."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO


def _modules_after(script: str) -> str:
    done = subprocess.run([sys.executable, "-c", "import sys\nfrom brv_vc import digest\n" + script
                           + "\nprint('_hashlib' in sys.modules, 'hashlib' in sys.modules,"
                           " type(h).__module__)"],
                          capture_output=True, text=True, check=True, env={"PYTHONPATH": str(REPO)})
    return done.stdout.strip()


def test_a_commits_digests_stay_built_in() -> None:
    """Index rows (SHA-1) and summary records (SHA-256) of a 100-entry commit at 25k entries."""
    script = ("for i in range(100):\n    h = digest.sha1(bytes(2_000))\n"
              "for i in range(100):\n    h = digest.sha256(bytes(7_200))")
    assert _modules_after(script) in ("False False _sha256", "False False _sha2")  # 3.12+: _sha2


def test_past_the_break_even_openssl_hashes() -> None:
    script = "for i in range(150):\n    h = digest.sha256(bytes(7_200))"  # 1.08 MB
    # OpenSSL's _hashlib, without hashlib.py's set-up (its functions are _hashlib's)
    assert _modules_after(script) == "True False _hashlib"
