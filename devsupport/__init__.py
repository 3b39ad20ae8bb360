"""Tooling of a rummy-bot checkout that the tests and the benchmarks share: a throwaway
PostgreSQL server (:mod:`.pg_server`) and the engine's build (:mod:`.engine_build`).

Neither the product (``engine``, ``bot``) nor its wheel carries it; the import contracts
in pyproject.toml keep the product from importing it.
"""
