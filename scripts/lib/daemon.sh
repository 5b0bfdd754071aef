# Sourced by the scripts that start a throwaway server of their own (postgres.sh, slapd.sh,
# samba.sh).

# port_is_free PORT [HOST]: nothing answers on HOST (127.0.0.1 unless told) at PORT.
port_is_free() {
    ! (exec 3<>"/dev/tcp/${2:-127.0.0.1}/$1") 2>/dev/null
}

# Closes every descriptor but 0-2: a server started from here, a daemon, inherits what its
# starter has, and a caller that waits for the end of an inherited pipe or socket (Foundation's
# Process does) would wait for as long as the server runs.
close_inherited_descriptors() {
    local fd
    for fd in /proc/$$/fd/*; do
        fd=${fd##*/}
        [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null || true
    done
}
