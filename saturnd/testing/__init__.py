"""Shipped for the tests and the benchmark alike: the scripted model server (`fake_model`) and a
throwaway daemon in a temp home (`scratch`). Nothing in the daemon imports it."""
