# powercut-rig. `make demo` and `make test` do all set-up on a fresh Debian bookworm machine (root),
# installing only what is missing.
SHELL := /bin/bash
APT_PACKAGES := fuse3 libfuse3-dev pkg-config e2fsprogs xfsprogs util-linux \
	mariadb-server mariadb-client sysbench chromium docker.io debootstrap fio
VM_APT_PACKAGES := qemu-system-x86 busybox-static dmsetup xz-utils
NODE_BIN := node_modules/.bin
HELPER := faults/helper/pfdisk
DM_WATCH := faults/helper/pfdm-watch
LOOP_MOUNT := faults/helper/pfmount
COVERAGE_MIN ?= 90

.PHONY: setup apt npm helper compose-plugin build dist test-build demo test test-fast test-docker test-dm vm-setup images hunt bench schema clean setup-times-reset

setup: apt npm helper compose-plugin

# Each set-up step's time, for the end of `make test`'s log (run-tests.mjs --setup-times prints the
# file, then deletes it): a step's recipe starts with $(step-start) and ends with
# $(call step-end,NAME). A step that make finds up to date runs no recipe: its phony target says so
# instead. Only while the file exists, from setup-times-reset on: other runs write nothing.
SETUP_TIMES := .tap/setup-times
STEP_START := .tap/setup-step-start
step-start = @[ ! -f $(SETUP_TIMES) ] || date +%s.%N > $(STEP_START)
step-end = @[ ! -f $(SETUP_TIMES) ] || LC_ALL=C awk -v step=$(1) -v end=$$(date +%s.%N) \
	'{ printf "%s %.1f s\n", step, end - $$1 }' $(STEP_START) >> $(SETUP_TIMES)
step-up-to-date = @[ ! -f $(SETUP_TIMES) ] || grep -q '^$(1) ' $(SETUP_TIMES) || echo '$(1) up to date' >> $(SETUP_TIMES)

# Turns the timing on, afresh: the first prerequisite of the targets that print it. make makes
# prerequisites left to right (it is run without -j; an order-only one would come after the others),
# so what a killed earlier run left is gone before any step writes.
setup-times-reset:
	@mkdir -p .tap && : > $(SETUP_TIMES)

# Installs the Debian packages of $(1) that are not installed yet.
define apt-install-missing
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing: $$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

apt:
	$(step-start)
	$(call apt-install-missing,$(APT_PACKAGES))
	$(call step-end,apt)

npm: node_modules/.package-lock.json
	$(call step-up-to-date,npm)

node_modules/.package-lock.json: package-lock.json
	$(step-start)
	npm ci --no-audit --no-fund
	@touch $@
	$(call step-end,npm)

helper: $(HELPER) $(DM_WATCH) $(LOOP_MOUNT)
	$(call step-up-to-date,helper)

# `docker compose` (docker-compose.yml): Debian trixie's Compose v2 plugin where the CLI has none.
compose-plugin: apt
	$(step-start)
	@scripts/install-compose-plugin.sh
	$(call step-end,compose-plugin)

$(HELPER) $(DM_WATCH) $(LOOP_MOUNT) &: $(wildcard faults/helper/*.c faults/helper/*.h) faults/helper/Makefile
	$(step-start)
	$(MAKE) -C faults/helper
	$(call step-end,helper)

build: setup dist

# The TypeScript alone, to dist/ (the CLI the tests run as users do): compiled when a source is
# newer than the last build (dist/.built; the tests' build below makes it too).
SOURCES := $(shell find rig faults reports bench images -name '*.ts' 2>/dev/null) tsconfig.json
TEST_SOURCES := $(shell find test -name '*.ts' 2>/dev/null) tsconfig.test.json

dist: dist/.built
	$(call step-up-to-date,dist)

dist/.built: node_modules/.package-lock.json $(SOURCES)
	$(step-start)
	$(NODE_BIN)/tsc -p tsconfig.json
	@chmod +x dist/rig/cli/main.js
	@touch $@
	$(call step-end,dist)

# The sources and test/, type-checked and compiled into dist/ (tsconfig.test.json): tap runs the
# compiled tests, dist/test/**/*.test.js. Fails on any type error.
test-build: dist/.tests-built
	$(call step-up-to-date,test-build)

dist/.tests-built: node_modules/.package-lock.json $(SOURCES) $(TEST_SOURCES)
	$(step-start)
	$(NODE_BIN)/tsc -p tsconfig.test.json
	@chmod +x dist/rig/cli/main.js
	@touch dist/.built $@
	$(call step-end,test-build)

# A database finding (exit 1) is what the demo is for: it is in the report, and the demo succeeds.
demo: build
	@node dist/rig/cli/main.js campaign campaigns/quick.yml --out reports/latest; code=$$?; \
	if [ $$code -eq 1 ]; then echo "demo: the campaign found what the report shows (exit 1 from rig campaign): reports/latest/index.html"; exit 0; fi; \
	exit $$code

# The kernel path's guest (rig vm run): qemu, busybox and dmsetup for its initramfs, then Debian's
# kernel package and the guest built from it (rig vm setup: each only when missing or stale).
vm-setup: dist
	$(step-start)
	$(call apt-install-missing,$(VM_APT_PACKAGES))
	@node dist/rig/cli/main.js vm setup
	$(call step-end,vm-setup)

# The offline server images the docker tests run (MariaDB 10.11 and 11.8, MySQL 9.7), each built
# only when the engine lacks it; the command starts the rig's own dockerd and stops it after.
images: dist
	$(step-start)
	@node dist/rig/cli/main.js images build --offline
	$(call step-end,images)

# The *.dm.test.ts files: the dm backend at length (a hundred selftest seeds, the headline
# scenarios on fuse and dm). Each boots the guest, where device-mapper is real, from the host.
test-dm: build vm-setup
	@node scripts/run-tests.mjs --disable-coverage --timeout=3600 $$(find test -name '*.dm.test.ts' | sort)

# Everything: unit, root/FUSE/server integration and docker suites. Ends with "N passed, N failed".
test: setup-times-reset setup test-build vm-setup images
	$(step-start)
	@node dist/rig/cli/main.js cleanup # what a killed earlier run left (only disks whose owner is gone)
	$(call step-end,cleanup)
	@node scripts/run-tests.mjs --coverage-min $(COVERAGE_MIN) --setup-times $(SETUP_TIMES)

# The type check and build of the tests, then what needs no root, FUSE, server or Docker.
test-fast: setup-times-reset test-build
	@node scripts/run-tests.mjs --fast --setup-times $(SETUP_TIMES)

# Docker runtime only: starts the rig's own dockerd when none answers, builds the offline images;
# the compose test needs the Compose plugin.
test-docker: npm compose-plugin
	@node scripts/run-tests.mjs --disable-coverage $$(find test -name '*.docker.test.ts' | sort)

# The rates the suite does not wait for (campaigns/hunt.yml): how often a cut left to chance
# exercises doublewrite, and the hit rates of the findings the suite builds on purpose.
hunt: build
	@node dist/rig/cli/main.js campaign campaigns/hunt.yml --out reports/hunt

bench: build
	node dist/bench/disk.js
	node dist/bench/profile.js
	node dist/bench/report.js
	node dist/bench/merge.js
	node dist/bench/evidence.js
	node dist/bench/explore.js

# The results format's JSON Schemas, docs/schema/, generated from the types the rig writes it with
# (rig/results/types.ts; needs no build). Committed: make test-fast fails while they are stale.
schema: npm
	@node scripts/results-schema.mjs

clean:
	rm -rf dist .tap coverage
	$(MAKE) -C faults/helper clean
