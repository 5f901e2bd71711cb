#!/bin/sh
# Installs Docker Compose v2 as a CLI plugin where `docker compose version` fails: Debian trixie's
# docker-compose package (Compose v2 as a plugin; it needs only libc6 >= 2.34, so it runs on
# bookworm), from the Debian mirror this host already uses. apt fetches and verifies it (the trixie
# InRelease signature against the host's debian-archive-keyring, then the package's SHA256), with
# its own state in a temporary folder, so the host's apt sources and lists are left as they were.
# The plugin is unpacked with dpkg -x and copied to $PLUGIN_DIR.
set -eu
PLUGIN_DIR=${PLUGIN_DIR:-/usr/local/lib/docker/cli-plugins}
SUITE=trixie
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

if docker compose version >/dev/null 2>&1; then exit 0; fi
command -v docker >/dev/null || { echo "install-compose-plugin: no docker CLI (apt-get install docker.io)" >&2; exit 2; }

# The host's own Debian mirror (the one serving its own suite's main): it serves trixie too.
host_suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
mirror=$(apt-get indextargets --format '$(REPO_URI) $(CODENAME) $(COMPONENT)' 'Created-By: Packages' \
  | awk -v s="$host_suite" '$2 == s && $3 == "main" { print $1; exit }')
[ -n "$mirror" ] || { echo "install-compose-plugin: no Debian mirror for $host_suite in /etc/apt: add one" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lists/partial" "$tmp/archives/partial" "$tmp/parts" "$tmp/prefs"
: > "$tmp/status"
echo "deb [signed-by=$KEYRING] $mirror $SUITE main" > "$tmp/sources.list"
apt_opts="-o Dir::Etc::SourceList=$tmp/sources.list -o Dir::Etc::SourceParts=$tmp/parts
  -o Dir::Etc::PreferencesParts=$tmp/prefs -o Dir::State::Lists=$tmp/lists
  -o Dir::State::Status=$tmp/status -o Dir::Cache=$tmp -o Dir::Cache::Archives=$tmp/archives
  -o APT::Get::List-Cleanup=false -o APT::Sandbox::User=root"
echo "install-compose-plugin: docker-compose from $mirror $SUITE (signature checked with $KEYRING)"
# shellcheck disable=SC2086
apt-get $apt_opts -qq update
# shellcheck disable=SC2086
(cd "$tmp" && apt-get $apt_opts -qq download docker-compose)
deb=$(ls "$tmp"/docker-compose_*.deb)
dpkg-deb -x "$deb" "$tmp/root"
install -D -m 0755 "$tmp/root/usr/libexec/docker/cli-plugins/docker-compose" "$PLUGIN_DIR/docker-compose"
echo "install-compose-plugin: $(basename "$deb") -> $PLUGIN_DIR/docker-compose: $(docker compose version)"
