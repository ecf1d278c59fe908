#!/usr/bin/env bash
# better-sqlite3's native addon for .ci/run, compiled beside `npm install` (decision 040).
#
#   scripts/sqlite-addon.sh compile DIR   fetch the pinned better-sqlite3 from the registry into DIR and
#                                         compile its addon there (SQLite at -O1)
#   scripts/sqlite-addon.sh place DIR     once npm install is done: put DIR's addon into node_modules when
#                                         the installed better-sqlite3 is the same version
#
# Compiling SQLite is a minute of one core, and `npm install` leaves a core mostly idle while it
# downloads: the two together take the time of the longer. -O1 halves the compile (78 → 41 s here)
# and ran our queries as fast as -O3 (a 300,000-row insert and indexed reads: within the noise;
# -O0 took twice as long). Production installs compile as better-sqlite3 ships (-O3).
# When anything here fails, `place` leaves node_modules alone and `npm test` compiles the addon
# itself (`npm rebuild`, scripts/test.mjs), as on a developer's machine.
set -euo pipefail
cd "$(dirname "$0")/.."
verb="${1:-}"
dir="${2:-}"
if [ -z "$verb" ] || [ -z "$dir" ]; then
  echo "usage: scripts/sqlite-addon.sh compile|place DIR" >&2
  exit 2
fi
version="$(node -p 'require("./package.json").dependencies["better-sqlite3"]')"
addon=build/Release/better_sqlite3.node

case "$verb" in
  compile)
    mkdir -p "$dir"
    cd "$dir"
    tarball="$(npm pack "better-sqlite3@$version" --silent)"
    tar -xzf "$tarball"
    cd package
    # npm run puts its own node-gyp on the PATH, with the npm config (nodedir) in the environment.
    CFLAGS=-O1 npm run --silent build-release >../compile.log 2>&1
    echo "$version" >../version
    ;;
  place)
    installed="$(node -p 'require("./node_modules/better-sqlite3/package.json").version')"
    if [ -f "$dir/version" ] && [ "$(cat "$dir/version")" = "$installed" ] && [ -f "$dir/package/$addon" ]; then
      mkdir -p "node_modules/better-sqlite3/build/Release"
      cp "$dir/package/$addon" "node_modules/better-sqlite3/$addon"
      echo "better-sqlite3 $installed: addon compiled beside npm install, in place"
    else
      echo "better-sqlite3 $installed: no addon compiled beside npm install (see $dir/compile.log); npm test compiles it"
    fi
    ;;
  *)
    echo "usage: scripts/sqlite-addon.sh compile|place DIR" >&2
    exit 2
    ;;
esac
