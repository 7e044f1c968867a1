"""`python -m clients.menubar`: the menu-bar app (macOS only)."""

from clients.menubar.app import main

main()
