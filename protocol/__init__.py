"""Saturn's wire protocol: JSON-RPC 2.0 over NDJSON on a unix socket.

Wire types only. This package imports msgspec and the standard library,
never `saturnd` or `clients` (a test enforces it).
"""

PROTOCOL_VERSION = "1"
