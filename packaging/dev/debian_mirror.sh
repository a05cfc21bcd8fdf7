# Sourced by ./dev and packaging/test-packages.sh (bash).
# The Debian mirror comes from the host's own apt configuration (never a name typed here).
debian_mirror() {
    if [ -n "${LASTRO_DEBIAN_MIRROR:-}" ]; then
        echo "$LASTRO_DEBIAN_MIRROR"
        return
    fi
    local codenames='^(buster|bullseye|bookworm|trixie|forky|sid|stable|testing|unstable|oldstable)(-updates)?$'
    # Each lookup is captured and then tested, so that the callers' `set -o pipefail` does not
    # turn a missing sources.list.d/*.list (cat's exit 1) into "no mirror".
    local f uri
    uri=$(for f in /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        # deb822 stanzas: print the first URI of a stanza whose suites are Debian codenames.
        awk -v re="$codenames" '
            function flush() { if (uri != "" && ok && deb) { print uri; exit } uri=""; ok=0; deb=0 }
            /^[[:space:]]*$/ { flush(); next }
            /^Types:/ { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
            /^URIs:/ { uri = $2 }
            /^Suites:/ { for (i = 2; i <= NF; i++) if ($i ~ re) ok = 1 }
            END { flush() }' "$f"
    done | head -n 1) || true
    if [ -n "$uri" ]; then
        echo "$uri"
        return
    fi
    uri=$({ cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true; } |
        awk -v re="$codenames" '$1 == "deb" {
            i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
            if ($(i + 1) ~ re) { print $i; exit } }') || true
    if [ -n "$uri" ]; then
        echo "$uri"
        return
    fi
    return 1
}
