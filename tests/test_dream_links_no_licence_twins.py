"""One licence text filled in for two packages is no reason to link them, held whole or not.

Debian's ``libsisu-inject-java`` and ``libsisu-plexus-java`` ship the same copyright file,
one of them with one more ``Files:`` stanza (issue 37's Debian corpus: a CROSS_REFERENCE at
0.89). The shorter is covered by the longer almost word for word, the longer by the
shorter only in part: the "same text for two subjects" rule read the smaller of the two
directions and linked them. Twins either way are twins.
"""

from __future__ import annotations

from dream_support import NOW, add

from brv_vc.services import dream

COPYRIGHT = ("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
             "Upstream-Name: sisu\nSource: https://github.com/eclipse/sisu.inject\n\n"
             "Files: *\nCopyright: 2010-2023 Sonatype, Inc. and others\n"
             "License: EPL-1.0\n\nFiles: debian/*\nCopyright: 2013 Emmanuel Bourg\n"
             "License: EPL-1.0\n\nLicense: EPL-1.0\n The Eclipse Public License 1.0 is "
             "in /usr/share/common-licenses/EPL-1.0 on Debian systems; the program and its "
             "accompanying materials are made available under its terms.\n")
EXTRA = ("\nFiles: org.eclipse.sisu.plexus/src/main/java/org/codehaus/*\n"
         "Copyright: 2001-2006 Codehaus Foundation\nLicense: Apache-2.0\n\n"
         "Files: org.eclipse.sisu.plexus/src/main/java/org/codehaus/plexus/util/xml/*\n"
         "Copyright: 2004 The Apache Software Foundation\nLicense: Apache-2.0\n\n"
         "License: Apache-2.0\n On Debian systems the full text of the Apache License 2.0 "
         "is in /usr/share/common-licenses/Apache-2.0.\n")


OTHERS = [  # other packages' documents beside them, as in the corpus
    ("debian/curl", "Changelog", "curl (8.5.0-2) unstable; urgency=medium\n\n  * Fix the "
     "HTTP/2 window update on paused transfers.\n  * Build with nghttp3 for HTTP/3.\n"),
    ("debian/gnupg", "README", "GnuPG keeps its keys in ~/.gnupg; gpg-agent caches "
     "passphrases and starts on demand. Use gpgconf --kill gpg-agent after an upgrade.\n"),
    ("debian/zlib1g", "Changelog", "zlib (1:1.3.dfsg-3) unstable; urgency=low\n\n  * "
     "Drop the minizip static library.\n  * Run the test suite at build time.\n"),
    ("debian/tzdata", "README", "Time zone data comes from IANA's tz database; "
     "dpkg-reconfigure tzdata chooses the local zone.\n"),
]


def test_a_licence_held_whole_in_a_sibling_package_s_is_not_linked(project) -> None:
    for folder, title, text in OTHERS:
        add(project, folder, title, text)
    add(project, "debian/libsisu_inject_java", "Copyright", COPYRIGHT)
    add(project, "debian/libsisu_plexus_java", "Copyright", COPYRIGHT + EXTRA)
    result = dream.dream(project, NOW, force=True)
    across = [op for op in result.operations if op["operation"] == "consolidate"
              and op["action"] != "SKIP"]
    assert across == []
