# The two set-up commands of the README: `make example` audits the bundled design system, `make test` runs the tests.
.PHONY: example test bench deps fuzz

deps:
	@scripts/install-deps.sh

example: deps
	swift build --product a11yctl
	.build/debug/a11yctl audit Examples/DesignSystem || test $$? -eq 1

test: deps
	swift build --build-tests
	swift test --skip-build
	systemd/verify.sh
	Tests/e2e/systemd-e2e.sh

bench: deps
	swift build -c release --product a11yctl
	swift build -c release --product a11y-bench
	.build/release/a11y-bench

# libFuzzer targets (docs/reliability.md): a separate instrumented build, then every target for FUZZ_SECONDS each.
FUZZ_SECONDS ?= 600
fuzz: deps
	swift build --build-path .build-fuzz --product a11y-fuzz -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library -Xswiftc -DA11Y_FUZZING
	scripts/fuzz.sh $(FUZZ_SECONDS)
