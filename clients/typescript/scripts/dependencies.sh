# Sourced by generate.sh and test.sh: installs the pinned npm packages of package-lock.json into
# node_modules when they are missing or older than the lock file. npm keeps its cache in its
# default place ($HOME/.npm), so a second install needs no network.
install_dependencies() {
    local dir=$1
    # npm ci writes node_modules/.package-lock.json last: newer than the lock file means done.
    [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ] && return 0
    command -v npm >/dev/null || {
        echo "clients/typescript: npm is missing (run this inside the build root: ./dev shell)" >&2
        return 1
    }
    # One install at a time when several scripts start together; the second finds it done.
    mkdir -p "$dir/.work"
    exec 9>"$dir/.work/npm-install.lock"
    flock 9
    if ! [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then
        (cd "$dir" && npm ci --prefer-offline --no-audit --no-fund --loglevel=error >&2) || {
            echo "clients/typescript: npm ci failed (see above)" >&2
            return 1
        }
    fi
    flock -u 9
}
