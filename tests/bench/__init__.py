"""The benchmarks (`make bench`, `make bench-search`): one place, outside the apps, so no
production module imports benchmark code (import-linter's contracts say so)."""
