"""The OpenAI-compatible front door (server.py) and the shapes it reads and writes (shapes.py)."""
