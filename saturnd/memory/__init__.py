"""Memory: facts the user stated, kept only when the words are provably theirs."""
