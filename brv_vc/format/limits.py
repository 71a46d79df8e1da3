"""Size limits of knowledge files.

Apart from the parsers: the cold search path needs the limit, not the YAML stack that
``format.entry`` imports.
"""

# The largest knowledge file brv reads (docs/robustness.md "Sizes"). An entry is a note an
# agent reads whole: a 1 MiB one is already ~250,000 tokens. Above it a file is listed as a
# problem and never indexed, summarised or parsed (a 50 MB file once took the index down).
MAX_ENTRY_BYTES = 1 << 20
