#!/bin/sh
# Keeps docs/variants.md in step with the rule modules: every key that a module's parse function
# (core/mod_*.c, the function named by `.parse_option`) compares the entry's key against must be
# written as `key` in that module's subsection of docs/variants.md, the one headed
# "### `[SECTION]`" (SECTION from the module's `.section`). Fails, naming key, file and section,
# for every key missing there; also fails if a module's subsection is missing, a parse function
# cannot be found or yields no key, or no key is found at all (so the test never passes vacuously).
# Keys the code does not spell as string literals (tuoqi's piece-letter keys in [displacement])
# are outside its reach.
# Usage: test_doc_keys.sh SOURCE_DIR
set -u
src=${1:?usage: test_doc_keys.sh SOURCE_DIR}
doc="$src/docs/variants.md"
[ -r "$doc" ] || { echo "FAIL: cannot read $doc"; exit 1; }

# The body of C function $2 in file $1, from its definition (a line beginning with its return
# type and holding "NAME(" without a ';' after the parameters) to the first line "}", on one line.
function_body() {
    awk -v fn="$2" '
        !on && $0 ~ "^[A-Za-z].*[ *]" fn "[ \t]*\\(" && $0 !~ /;[ \t]*$/ { on = 1 }
        on { printf "%s ", $0 }
        on && /^}/ { exit }
    ' "$1"
}

# The string literals that code $1 compares against the key: strcmp / strncmp / strcasecmp
# calls with, as one argument, PARAM->key (PARAM the function's `const IniEntry *` parameter)
# or a local variable initialised from it ("const char *k = e->key"); either argument order.
keys_of() {
    printf '%s\n' "$1" | awk '
        function id_re() { return "[A-Za-z_][A-Za-z0-9_]*" }
        {
            s = $0
            if (!match(s, "IniEntry[ \t]*\\*[ \t]*" id_re())) exit
            p = substr(s, RSTART, RLENGTH); sub(/^IniEntry[ \t]*\*[ \t]*/, "", p)
            nv = 1; var[1] = p "->key"
            t = s
            while (match(t, id_re() "[ \t]*=[ \t]*" p "[ \t]*->[ \t]*key")) {
                a = substr(t, RSTART, RLENGTH); sub(/[ \t]*=.*/, "", a)
                var[++nv] = a
                t = substr(t, RSTART + RLENGTH)
            }
            lit = "\"[^\"]*\""
            for (i = 1; i <= nv; i++) {
                v = var[i]; gsub(/->/, "[ \t]*->[ \t]*", v)
                for (form = 1; form <= 2; form++) {
                    if (form == 1)
                        re = "str(case)?n?cmp[ \t]*\\([ \t]*" v "[ \t]*,[ \t]*" lit
                    else
                        re = "str(case)?n?cmp[ \t]*\\([ \t]*" lit "[ \t]*,[ \t]*" v "[ \t]*[,)]"
                    t = s
                    while (match(t, re)) {
                        c = substr(t, RSTART, RLENGTH)
                        t = substr(t, RSTART + RLENGTH)
                        if (!match(c, lit)) continue
                        k = substr(c, RSTART + 1, RLENGTH - 2)
                        if (!(k in seen)) { seen[k] = 1; print k }
                    }
                }
            }
        }'
}

# The lines of the doc subsection "### ... `[SECTION]` ..." up to the next heading of level 1-3,
# without ``` code blocks (a key must be documented in the text, not only in an example).
doc_section() {
    awk -v sec="[$1]" '
        /^```/ { fence = !fence; next }
        fence { next }
        !fence && /^#+ / && match($0, /^#+/) && RLENGTH <= 3 {
            on = (RLENGTH == 3 && index($0, "`" sec "`") > 0)
            if (on) found = 1
            next
        }
        on { print }
        END { if (!found) exit 3 }
    ' "$doc"
}

fail=0
total=0
nmod=0
for f in "$src"/core/mod_*.c; do
    [ -r "$f" ] || continue
    rel=${f#"$src"/}
    section=$(sed -n 's/.*\.section[ \t]*=[ \t]*"\([^"]*\)".*/\1/p' "$f" | head -n 1)
    fn=$(sed -n 's/.*\.parse_option[ \t]*=[ \t]*\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$f" | head -n 1)
    [ -n "$section" ] || continue
    nmod=$((nmod + 1))
    text=$(doc_section "$section")
    if [ $? -ne 0 ]; then
        echo "FAIL: $rel: docs/variants.md has no subsection headed ### \`[$section]\`"
        fail=1
        continue
    fi
    [ -n "$fn" ] || continue
    body=$(function_body "$f" "$fn")
    if [ -z "$body" ]; then
        echo "FAIL: $rel: parse function $fn not found"
        fail=1
        continue
    fi
    keys=$(keys_of "$body")
    if [ -z "$keys" ]; then
        echo "FAIL: $rel: no key found in $fn (has the way keys are compared changed?)"
        fail=1
        continue
    fi
    for k in $keys; do
        total=$((total + 1))
        if ! printf '%s\n' "$text" | grep -F -q "\`$k\`"; then
            echo "FAIL: $rel: key '$k' of [$section] is not documented as \`$k\` in the [$section] subsection of docs/variants.md"
            fail=1
        fi
    done
    echo "$rel [$section]:" $keys
done
if [ "$nmod" -eq 0 ] || [ "$total" -eq 0 ]; then
    echo "FAIL: no rule-module keys found under $src/core (modules: $nmod, keys: $total)"
    exit 1
fi
[ $fail -eq 0 ] && echo "ok: $total keys of $nmod modules documented"
exit $fail
