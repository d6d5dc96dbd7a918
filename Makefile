# The two set-up commands of the README: `make example` audits the bundled design system, `make test` runs the tests.
.PHONY: example test bench profile install uninstall deps-example deps-test deps-build deps-bench fuzz

PREFIX ?= /usr/local
CONFIG ?= release
BIN := .build/$(CONFIG)
# Release binaries carry the Swift runtime and Foundation inside them: a one-shot audit starts faster and peaks ~5 MB
# lower than with the shared libraries (BENCHMARKS.md); a11yctl carries glibc and libstdc++ too (Package.swift: it
# starts ~1.5 ms sooner). Debug builds (tests, `make example`) link the shared ones.
# Release builds compile the dependencies (Yams, ArgumentParser, SwiftSyntax) as Package.swift compiles our targets: their
# generic types' metadata reached through accessors, not looked up by mangled name (a look-up scans every conformance
# record of the static binary on first use). An audit starts 0.7-0.8 ms sooner, elevate-ios's takes 1.5 ms less
# (BENCHMARKS.md, "Serial steps, reference counts, warm against cold").
# They are also optimised across modules at link time (SwiftPM's thin LTO, linked by the toolchain's lld): a function of
# one module (the engine's name hashing, the reader's lexer) is inlined into another's. A cold 5,000-token audit runs
# 6-7% fewer instructions (BENCHMARKS.md, "Link-time optimisation"). The first release build takes ~15 minutes instead of
# ~5 (swift-syntax is compiled for LTO too). Full LTO (`--experimental-lto-mode=full`) made an a11yctl that crashed.
# `make profile` builds with the flags before LTO: the profile is read as each module is compiled, before the link.
COMPILE_FLAGS := --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
RELEASE_FLAGS := $(COMPILE_FLAGS) --experimental-lto-mode=thin
FLAGS := $(if $(filter release,$(CONFIG)),$(RELEASE_FLAGS))
SUBCOMMANDS := audit pairs explain rules status latest watch history diff run reload "service install" "service uninstall"

# `make example` needs only what a11yctl needs; `make test` needs the daemon's libraries, systemd, D-Bus and
# Debian's python3-jsonschema (scripts/install-deps.sh lists them).
deps-example:
	@scripts/install-deps.sh example

deps-test:
	@scripts/install-deps.sh test

deps-build:
	@scripts/install-deps.sh build

deps-bench:
	@scripts/install-deps.sh bench

example: deps-example
	swift build --product a11yctl
	.build/debug/a11yctl audit Examples/DesignSystem || test $$? -eq 1

test: deps-test
	swift build --build-tests
	swift test --skip-build
	systemd/verify.sh
	Tests/e2e/systemd-e2e.sh

# Cold audit, a11yctl against the Python peer (bench/peer_audit.py) at 1k/5k/20k tokens, ten themes (BENCHMARKS.md).
bench: deps-bench
	swift build -c release $(RELEASE_FLAGS) --product a11yctl
	swift build -c release $(RELEASE_FLAGS) --product a11yd
	swift build -c release $(RELEASE_FLAGS) --product a11y-bench
	.build/release/a11y-bench
	.build/release/a11y-bench peer
	.build/release/a11y-bench themes
	dir=$$(mktemp -d) && .build/release/a11y-bench write $$dir/synthetic && .build/release/a11y-bench edit $$dir/synthetic; rm -rf $$dir
	.build/release/a11y-bench daemon --tokens 5000

# Remakes Profiles/a11y.profdata, the profile release builds are optimised with (Package.swift), built as `bench` builds.
profile: deps-bench
	COMPILE_FLAGS="$(COMPILE_FLAGS)" scripts/make-profile.sh

# `make install PREFIX=~/.local`: release binaries, policies, unit templates, man pages generated from the help, and
# shell completions. `a11yctl service install --root PATH` then points the units at $(PREFIX)/bin/a11yd.
install: deps-build
	swift build -c $(CONFIG) $(FLAGS) --product a11yctl
	swift build -c $(CONFIG) $(FLAGS) --product a11yd
	install -d $(PREFIX)/bin $(PREFIX)/share/a11yd/policies $(PREFIX)/share/a11yd/systemd $(PREFIX)/share/man/man1 \
		$(PREFIX)/share/man/man8 $(PREFIX)/share/bash-completion/completions $(PREFIX)/share/zsh/site-functions \
		$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(BIN)/a11yctl $(BIN)/a11yd $(PREFIX)/bin/
	install -m 644 policies/*.yml $(PREFIX)/share/a11yd/policies/
	install -m 644 systemd/a11yd.service systemd/a11yd.socket $(PREFIX)/share/a11yd/systemd/
	scripts/man-page.sh $(BIN)/a11yctl 1 "query and run accessibility and contrast audits of a design system" $(SUBCOMMANDS) \
		> $(PREFIX)/share/man/man1/a11yctl.1
	scripts/man-page.sh $(BIN)/a11yd 8 "accessibility and contrast auditing daemon for design systems" > $(PREFIX)/share/man/man8/a11yd.8
	$(BIN)/a11yctl --generate-completion-script bash > $(PREFIX)/share/bash-completion/completions/a11yctl
	$(BIN)/a11yctl --generate-completion-script zsh > $(PREFIX)/share/zsh/site-functions/_a11yctl
	$(BIN)/a11yctl --generate-completion-script fish > $(PREFIX)/share/fish/vendor_completions.d/a11yctl.fish
	@echo "installed into $(PREFIX); next: a11yctl service install --root PATH/TO/DesignSystem"

uninstall:
	rm -f $(PREFIX)/bin/a11yctl $(PREFIX)/bin/a11yd $(PREFIX)/share/man/man1/a11yctl.1 $(PREFIX)/share/man/man8/a11yd.8 \
		$(PREFIX)/share/bash-completion/completions/a11yctl $(PREFIX)/share/zsh/site-functions/_a11yctl \
		$(PREFIX)/share/fish/vendor_completions.d/a11yctl.fish
	rm -rf $(PREFIX)/share/a11yd

# libFuzzer targets (docs/reliability.md): a separate instrumented build, then every target for FUZZ_SECONDS each.
FUZZ_SECONDS ?= 600
fuzz: deps-build
	swift build --build-path .build-fuzz --product a11y-fuzz -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library -Xswiftc -DA11Y_FUZZING
	scripts/fuzz.sh $(FUZZ_SECONDS)
