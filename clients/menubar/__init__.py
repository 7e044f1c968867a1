"""The macOS menu-bar quick ask. `controller` holds all it does and imports no UI, so it runs
and is tested anywhere; `app` is the thin rumps layer, macOS only."""
