"""What a running ``brv vc`` command tells the git hooks it starts (environment variables).

Nothing is validated or refreshed twice in one user action: the command did it already, so
the hook it runs (inside ``git commit``, ``git push``, ``git merge``, ``git checkout``) skips
it. A plain git command sets none of these, and its hook does the whole job. Kept free of
imports: the hook fast path (``cli/fast.py``) reads these names before anything else.
"""

# the commit 'brv vc push' checked with refuse_unpushable: its pre-push hook skips that one
PUSH_CHECKED_ENV = "BRV_PUSH_CHECKED"
# the tree 'brv vc commit' validated (git write-tree of the index): pre-commit skips it
COMMIT_CHECKED_ENV = "BRV_COMMIT_CHECKED"
# the post-change hooks (comma-separated) the running brv command does itself after git
# returns (pull, merge and checkout run the post-change step in process): they do nothing
REFRESHING_ENV = "BRV_REFRESHING"
