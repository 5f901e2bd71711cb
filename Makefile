# powercut-rig. `make demo` and `make test` do all set-up on a fresh Debian bookworm machine (root),
# installing only what is missing.
SHELL := /bin/bash
APT_PACKAGES := fuse3 libfuse3-dev pkg-config e2fsprogs xfsprogs util-linux \
	mariadb-server mariadb-client sysbench chromium docker.io debootstrap fio
VM_APT_PACKAGES := qemu-system-x86 busybox-static dmsetup xz-utils
NODE_BIN := node_modules/.bin
HELPER := faults/helper/pfdisk
DM_WATCH := faults/helper/pfdm-watch
COVERAGE_MIN ?= 90

.PHONY: setup apt npm helper compose-plugin build dist typecheck demo test test-fast test-integration test-docker test-dm vm-setup bench clean

setup: apt npm helper compose-plugin

# Installs the Debian packages of $(1) that are not installed yet.
define apt-install-missing
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing: $$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

apt:
	$(call apt-install-missing,$(APT_PACKAGES))

npm: node_modules/.package-lock.json

node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

helper: $(HELPER) $(DM_WATCH)

# `docker compose` (docker-compose.yml): Debian trixie's Compose v2 plugin where the CLI has none.
compose-plugin: apt
	@scripts/install-compose-plugin.sh

$(HELPER) $(DM_WATCH) &: $(wildcard faults/helper/*.c faults/helper/*.h) faults/helper/Makefile
	$(MAKE) -C faults/helper

build: setup dist

# The TypeScript alone, to dist/ (the CLI the tests run as users do).
dist: npm
	$(NODE_BIN)/tsc -p tsconfig.json
	@chmod +x dist/rig/cli/main.js

# The sources and test/ (tap runs the tests without checking their types); fails on any type error.
typecheck: npm
	$(NODE_BIN)/tsc -p tsconfig.test.json

# A database finding (exit 1) is what the demo is for: it is in the report, and the demo succeeds.
demo: build
	@node dist/rig/cli/main.js campaign campaigns/quick.yml --out reports/latest; code=$$?; \
	if [ $$code -eq 1 ]; then echo "demo: the campaign found what the report shows (exit 1 from rig campaign): reports/latest/index.html"; exit 0; fi; \
	exit $$code

# The kernel path's guest (rig vm run): qemu, busybox and dmsetup for its initramfs, then Debian's
# kernel package and the guest built from it (rig vm setup: each only when missing or stale).
vm-setup: dist
	$(call apt-install-missing,$(VM_APT_PACKAGES))
	@node dist/rig/cli/main.js vm setup

# The *.dm.test.ts files: the dm backend at length (a hundred selftest seeds, the headline
# scenarios on fuse and dm). Each boots the guest, where device-mapper is real, from the host.
test-dm: build vm-setup
	@node scripts/run-tests.mjs --disable-coverage --timeout=3600 $$(find test -name '*.dm.test.ts' | sort)

# Everything: unit, root/FUSE/server integration and docker suites. Ends with "N passed, N failed".
test: build typecheck vm-setup
	@node dist/rig/cli/main.js cleanup # what a killed earlier run left (only disks whose owner is gone)
	@node scripts/run-tests.mjs --coverage-min $(COVERAGE_MIN)

# The type check, then what needs no root, FUSE, server or Docker.
test-fast: typecheck dist
	@node scripts/run-tests.mjs --fast

# Docker runtime only: starts the rig's own dockerd when none answers, builds the offline images;
# the compose test needs the Compose plugin.
test-docker: npm compose-plugin
	@node scripts/run-tests.mjs --disable-coverage $$(find test -name '*.docker.test.ts' | sort)

bench: build
	node dist/bench/disk.js
	node dist/bench/profile.js
	node dist/bench/report.js
	node dist/bench/explore.js

clean:
	rm -rf dist .tap coverage
	$(MAKE) -C faults/helper clean
