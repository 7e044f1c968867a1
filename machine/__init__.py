"""What the daemon and its clients both need to know about this machine: where Saturn keeps its
files (`paths`), the OS keyring entries that hold API keys (`keyring_secrets`), and how a
saturnd process is started (`daemon_process`).

It sits beside `protocol`, not inside it, because it needs more than msgspec and the standard
library (platformdirs, keyring), and outside `saturnd` so that `clients` never imports the
daemon: clients -> protocol, machine <- saturnd. It imports neither `saturnd` nor `clients`.
"""
