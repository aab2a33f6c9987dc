"""The boards: one widget per game on a shared base, and the Textual-free text each draws
(stacks, chips, hex glyphs), which importing this package does not load."""
