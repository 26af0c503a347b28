"""Tamper evidence: canonical hashing, the per-project hash chain, Merkle checkpoints."""
