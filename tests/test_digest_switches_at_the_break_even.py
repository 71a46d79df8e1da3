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


def _run(script: str) -> str:
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, env={"PYTHONPATH": str(REPO)})
    return done.stdout.strip()


def test_openssl_refusing_the_digest_falls_back_as_hashlib_does() -> None:
    """A policy that refuses a digest (ValueError on construction): hashlib's own choice."""
    script = ("import sys, types, hashlib\n"
              "fake = types.ModuleType('_hashlib')\n"
              "def refused(*a, **k):\n    raise ValueError('disabled by policy')\n"
              "fake.openssl_sha256 = refused\n"
              "sys.modules['_hashlib'] = fake\n"
              "from brv_vc import digest\n"
              "h = digest.sha256(bytes(2_000_000))\n"
              "print(h.hexdigest() == hashlib.sha256(bytes(2_000_000)).hexdigest(),"
              " digest._OPENSSL['sha256'] is hashlib.sha256)")
    assert _run(script) == "True True"


def test_the_openssl_choice_is_made_once() -> None:
    """Past the switch, every digest reuses the constructor chosen at the first one."""
    script = ("import builtins\nfrom brv_vc import digest\n"
              "h = digest.sha1(bytes(2_000_000))\n"
              "tries = []\nreal = builtins.__import__\n"
              "builtins.__import__ = lambda n, *a, **k: (tries.append(n), real(n, *a, **k))[1]\n"
              "for i in range(50):\n    h = digest.sha1(b'x')\n"
              "builtins.__import__ = real\n"
              "print(tries)")
    assert _run(script) == "[]"
