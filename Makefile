# The two set-up commands of the README: `make example` audits the bundled design system, `make test` runs the tests.
.PHONY: example test bench deps-example deps-test

# `make example` needs only what a11yctl needs; `make test` needs the daemon's libraries, systemd, D-Bus and
# Debian's python3-jsonschema (scripts/install-deps.sh lists them).
deps-example:
	@scripts/install-deps.sh example

deps-test:
	@scripts/install-deps.sh test

example: deps-example
	swift build --product a11yctl
	.build/debug/a11yctl audit Examples/DesignSystem || test $$? -eq 1

test: deps-test
	swift build --build-tests
	swift test --skip-build
	systemd/verify.sh
	Tests/e2e/systemd-e2e.sh

bench: deps-example
	swift build -c release --product a11yctl
	swift build -c release --product a11y-bench
	.build/release/a11y-bench
