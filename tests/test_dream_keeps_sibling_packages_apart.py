"""Two sibling packages with the same documents are two subjects, and no pair of twins.

Debian builds ``libxmlsec1`` and ``libxmlsec1-openssl`` from one source: their copyright
and changelog files are byte for byte the same, and every word of one folder's name is in
the other's. A dream merged them (issue 37: 6 of the 28 MERGEs on Debian's docs); a
folder names its subject, so sibling folders that name different things are two
subjects. Nor does the same text filled in for two subjects make a cross-reference.
"""

from __future__ import annotations

from dream_support import NOW, add

from brv_vc.services import dream

COPYRIGHT = ("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
             "Upstream-Name: xmlsec1\nSource: https://www.aleksey.com/xmlsec/\n\n"
             "Files: *\nCopyright: 2002-2022 Aleksey Sanin. All Rights Reserved.\n"
             "License: MIT\n\nFiles: debian/*\nCopyright: 2003-2008 John Belmonte\n"
             "License: MIT\n")
CHANGELOG = ("xmlsec1 (1.2.33-1) unstable; urgency=medium\n\n  * New upstream release.\n"
             "  * Build against OpenSSL 3.0; drop the NSS crypto engine patch.\n"
             "  * Bump Standards-Version to 4.6.0, no changes needed.\n")


def test_sibling_packages_with_the_same_documents_are_neither_merged_nor_linked(project):
    paths = [add(project, f"debian/{package}", title, text)
             for package in ("libxmlsec1", "libxmlsec1_openssl")
             for title, text in (("Copyright", COPYRIGHT), ("Changelog", CHANGELOG))]
    result = dream.dream(project, NOW, force=True)
    across = [op for op in result.operations if op["operation"] == "consolidate"
              and op["action"] != "SKIP"]
    assert across == []
    assert all((project.tree / p).is_file() for p in paths)  # nothing merged away
