"""A CROSS_REFERENCE needs one entry to name the other's subject, not a common or family word.

Issue 37's corpora (Python READMEs, man pages): a dream linked cffi's "Source code" section
to greenlet's "Getting greenlet" because greenlet's text says "source" and cffi's title does
(a title word few titles use, though every README's text says it), and the descriptions of
``gcloud alpha managed-kafka connectors create`` and ``... consumer-groups delete`` because
both folders hold the word "kafka" (a command family, not a mention of either). A title's
word must also be rare in the domain's texts, and a folder counts as named when the other
says its whole name: pydantic-core's README naming "pydantic" still links the two.
"""

from __future__ import annotations

from dream_support import NOW, add

from brv_vc.services import dream

READMES = [  # other packages' README sections beside them, as in the corpus
    ("pypi/certifi", "Installation", "Certifi provides Mozilla's carefully curated collection "
     "of Root Certificates. The source code is on GitHub: "
     "https://github.com/certifi/python-certifi"),
    ("pypi/idna", "Installation", "This package is available from the Python Package Index. "
     "Its source code and issue tracker are hosted on GitHub: https://github.com/kjd/idna"),
    ("pypi/pycparser", "Introduction", "pycparser is a parser for the C language, written in "
     "pure Python. The source code lives on GitHub: https://github.com/eliben/pycparser"),
    ("pypi/six", "Six", "Six is a Python 2 and 3 compatibility library. Its source code is "
     "hosted on GitHub: https://github.com/benjaminp/six"),
]
CFFI = ("Source code is publicly available on GitHub: https://github.com/python-cffi/cffi")
GREENLET = ("The easiest way to get Greenlet is to install it with pip: pip install greenlet. "
            "Source code archives and binary distributions are available on the python "
            "package index at https://pypi.org/project/greenlet. The source code repository "
            "is hosted on github: https://github.com/python-greenlet/greenlet")

GCLOUD = [  # other commands' descriptions beside them
    ("man/gcloud_alpha_storage_buckets_create", "Description",
     "(ALPHA) Create a Cloud Storage bucket."),
    ("man/gcloud_alpha_pubsub_topics_delete", "Description", "(ALPHA) Delete a Pub/Sub topic."),
    ("man/gcloud_alpha_compute_instances_create", "Description",
     "(ALPHA) Create a Compute Engine virtual machine instance."),
]

PYDANTIC = ("Data validation using Python type hints. Fast and extensible, Pydantic plays "
            "nicely with your linters, IDE and brain: define how data should be in pure, "
            "canonical Python and validate it with Pydantic. Validation and serialization "
            "logic is written in Rust.")
PYDANTIC_CORE = ("This package provides the core functionality for pydantic: data "
                 "validation and serialization using Python type hints. Pydantic-core is "
                 "currently around 17x faster than pydantic V1; its validation logic is "
                 "written in Rust.")


def _links(result: dream.DreamResult) -> list[list[str]]:
    return [sorted(op["files"]) for op in result.operations
            if op["operation"] == "consolidate" and op["action"] == "CROSS_REFERENCE"]


def test_a_title_word_every_readme_says_does_not_link_two_packages(project) -> None:
    for folder, title, text in READMES:
        add(project, folder, title, text)
    cffi = add(project, "pypi/cffi", "Source code", CFFI)
    greenlet = add(project, "pypi/greenlet", "Getting greenlet", GREENLET)
    assert sorted([cffi, greenlet]) not in _links(dream.dream(project, NOW, force=True))


def test_two_commands_of_one_family_are_not_linked_by_the_family_s_word(project) -> None:
    for folder, title, text in GCLOUD:
        add(project, folder, title, text)
    connectors = add(project, "man/gcloud_alpha_managed_kafka_connectors_create",
                     "Description", "(ALPHA) Create a Managed Service for Apache Kafka "
                     "connector.")
    groups = add(project, "man/gcloud_alpha_managed_kafka_consumer_groups_delete",
                 "Description", "(ALPHA) Delete a Managed Service for Apache Kafka consumer "
                 "group.")
    assert sorted([connectors, groups]) not in _links(dream.dream(project, NOW, force=True))


def test_a_readme_that_names_another_package_is_still_linked_to_it(project) -> None:
    for folder, title, text in READMES:
        add(project, folder, title, text)
    pydantic = add(project, "pypi/pydantic", "Pydantic Validation", PYDANTIC)
    core = add(project, "pypi/pydantic_core", "pydantic-core", PYDANTIC_CORE)
    assert sorted([pydantic, core]) in _links(dream.dream(project, NOW, force=True))
