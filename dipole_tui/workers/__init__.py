"""Worker processes: the bots, the analysis and the review think here, never in the app's thread.

One loop (`serve.serve`) runs in every worker process and answers each typed request
(`protocol`) with the handler its type names (`handlers`); the app's side of a worker is a
`tracker.Tracker`, which starts the process (`process`) with its first request, numbers the
requests, cancels them, and drops answers to questions no longer asked. Workers end with their
parent (`dipole_tui.orphans`).
"""
