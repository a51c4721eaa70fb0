#!/usr/bin/env bash
# What `npm test` needs that npm cannot install: Debian's Chromium (Playwright, Lighthouse), a PostgreSQL
# server with a `test` database (the API suite runs against it as well as against PGlite), and nginx with the
# ModSecurity v3 module and the OWASP CRS (the firewall compiler's tests run `nginx -t` and a private nginx on their
# own prefixes; the system's nginx service is never used). Run first by `npm test`.
# As root it installs what is missing with apt-get and starts PostgreSQL; otherwise it names what is missing.
set -euo pipefail

missing=()
need() { # need <command or file> <Debian package>
  if [[ "$1" == /* ]]; then [[ -e "$1" ]] || missing+=("$2"); else command -v "$1" >/dev/null || missing+=("$2"); fi
}

need "${CHROMIUM_PATH:-/usr/bin/chromium}" chromium
need /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf fonts-dejavu-core
# A PostgreSQL server of our own only when the suite is not pointed at another one.
if [[ -z "${TEST_DATABASE_URL:-}" ]]; then need pg_ctlcluster postgresql; fi
# The WAF data plane: Debian's nginx, its ModSecurity v3 module and CRS 3.3.4.
need /usr/sbin/nginx nginx
need /usr/lib/nginx/modules/ngx_http_modsecurity_module.so libnginx-mod-http-modsecurity
need /usr/share/modsecurity-crs/rules modsecurity-crs

if ((${#missing[@]} > 0)); then
  if [[ "$(id -u)" != 0 ]]; then
    echo "npm test needs these Debian packages: ${missing[*]}. Install them once with: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "Installing ${missing[*]} with apt-get (once)…"
  export DEBIAN_FRONTEND=noninteractive
  # Installing nginx would start its service on port 80: a policy-rc.d that refuses every start keeps it stopped
  # (tests run their own nginx on private prefixes), unless the machine already has its own policy.
  policy=/usr/sbin/policy-rc.d
  if [[ ! -e "$policy" ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod +x "$policy"
    trap 'rm -f "$policy"' EXIT
  fi
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
  # …and not at the next boot either, where systemd runs.
  if [[ " ${missing[*]} " == *" nginx "* && -d /run/systemd/system ]]; then systemctl disable nginx.service >/dev/null 2>&1 || true; fi
fi

if [[ -n "${TEST_DATABASE_URL:-}" ]]; then exit 0; fi

# The suite's default server: 127.0.0.1:5432, user postgres without a password, database `test`.
version="$(ls /etc/postgresql 2>/dev/null | sort -V | tail -1)"
if ! pg_isready -q -h 127.0.0.1 -p 5432; then
  if [[ "$(id -u)" != 0 || -z "$version" ]]; then
    echo "npm test needs PostgreSQL on 127.0.0.1:5432 with a database 'test'. Start it (sudo pg_ctlcluster ${version:-15} main start) or set TEST_DATABASE_URL." >&2
    exit 1
  fi
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi

reach() { psql -h 127.0.0.1 -U postgres -d "$1" -Atc 'select 1' >/dev/null 2>&1; }
if ! reach postgres && [[ "$(id -u)" == 0 && -n "$version" ]]; then
  # A fresh Debian cluster asks for a password on TCP; the test user connects without one, from this machine only.
  sed -i '1i host all postgres 127.0.0.1/32 trust' "/etc/postgresql/$version/main/pg_hba.conf"
  pg_ctlcluster --skip-systemctl-redirect "$version" main reload
  sleep 1
fi
if ! reach test; then
  if ! psql -h 127.0.0.1 -U postgres -d postgres -Atc 'create database test' >/dev/null 2>&1; then
    echo "npm test needs a database 'test' on 127.0.0.1:5432 that the user postgres reaches without a password (createdb -h 127.0.0.1 -U postgres test), or TEST_DATABASE_URL." >&2
    exit 1
  fi
fi
