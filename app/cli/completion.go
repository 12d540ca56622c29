package cli

import (
	"context"
	"flag"
	"io"
	"strings"
)

// completionCommand prints a shell's completion script. The scripts hold
// no list of commands or flags: each asks the binary (allot __complete,
// complete.go) at every Tab, so they never fall behind it, and a new
// command completes without a new script.
var completionCommand = command{
	name:    "completion",
	args:    "bash|zsh|fish",
	summary: "print the shell completion script for bash, zsh or fish (allot help completion: how to install it)",
	operands: [][2]string{
		{"bash", `source <(allot completion bash)   (in ~/.bashrc)`},
		{"zsh", `allot completion zsh > "${fpath[1]}/_allot"   (a folder on fpath, read by compinit; then start a new shell)`},
		{"fish", `allot completion fish > ~/.config/fish/completions/allot.fish`},
	},
	standalone: true,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		return func(_ context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("takes one shell: bash, zsh or fish")
			}
			script, ok := completionScripts[args[0]]
			if !ok {
				return usagef("%q is no shell allot completes: bash, zsh or fish", args[0])
			}
			_, err := io.WriteString(e.Stdout, strings.TrimLeft(script, "\n"))
			return err
		}
	},
}

// completionScripts are the scripts, by shell. Each sends the words typed
// so far to allot __complete and reads back candidates, one a line (a
// tab before a description), then a directive line: :0 nothing more, :1
// file names, :2 directories. Nothing it prints on stderr reaches the
// terminal.
var completionScripts = map[string]string{
	"bash": bashCompletion,
	"zsh":  zshCompletion,
	"fish": fishCompletion,
}

// bashCompletion rejoins the words bash splits at = and : (--profile=prod
// is one word to allot), passes the current one with its backslashes
// undone, and hands back each candidate quoted for the command line,
// without what readline keeps before an = or a :.
const bashCompletion = `
# bash completion for allot. Install: source <(allot completion bash)
# The candidates come from allot itself (allot __complete).

_allot_unescape() {
    local s=${1#[\"\']} out="" i
    for ((i = 0; i < ${#s}; i++)); do
        if [[ ${s:i:1} == "\\" ]] && ((i + 1 < ${#s})); then
            i=$((i + 1))
        fi
        out+=${s:i:1}
    done
    printf '%s' "$out"
}

_allot() {
    local i word last glued=0 words=()
    for ((i = 1; i <= COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        last=$((${#words[@]} - 1))
        if [[ $word == [=:] ]] && ((last >= 0)); then
            words[last]+=$word
            glued=1
        elif ((glued)); then
            words[last]+=$word
            glued=0
        else
            words+=("$word")
        fi
    done
    ((${#words[@]})) || words=("")
    last=$((${#words[@]} - 1))
    local cur
    cur=$(_allot_unescape "${words[last]}")
    words[last]=$cur

    local out
    out=$("${COMP_WORDS[0]}" __complete "${words[@]}" 2>/dev/null) || return
    local directive=${out##*$'\n'} body=""
    [[ $out == *$'\n'* ]] && body=${out%$'\n'*}

    local typed=${COMP_WORDS[COMP_CWORD]}
    [[ $typed == [=:] ]] && typed=""
    COMPREPLY=()
    case $directive in
    :1)
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$typed")
        return
        ;;
    :2)
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -d -- "$typed")
        return
        ;;
    :0) ;;
    *) return ;;
    esac

    local kept=${cur%"${cur##*[=:]}"} line
    while IFS= read -r line; do
        [[ -n $line ]] || continue
        line=${line%%$'\t'*}
        line=${line#"$kept"}
        printf -v line '%q' "$line"
        COMPREPLY+=("$line")
    done <<<"$body"
}

complete -F _allot allot
`

// zshCompletion works as a file on fpath (#compdef) and sourced alike.
const zshCompletion = `
#compdef allot
# zsh completion for allot. Install: allot completion zsh > "${fpath[1]}/_allot"
# The candidates come from allot itself (allot __complete).

_allot() {
    local -a out cands abouts descs
    local line directive i width=0 described=0
    out=("${(@f)$("${(Q)words[1]}" __complete "${(@Q)words[2,CURRENT-1]}" "${(Q)PREFIX}" 2>/dev/null)}")
    (( ${#out} )) || return 1
    directive=${out[-1]}
    out=("${(@)out[1,-2]}")
    case $directive in
    :1) _files; return ;;
    :2) _files -/; return ;;
    :0) ;;
    *) return 1 ;;
    esac
    for line in "${out[@]}"; do
        [[ -n $line ]] || continue
        cands+=("${line%%$'\t'*}")
        if [[ $line == *$'\t'* ]]; then
            abouts+=("${line#*$'\t'}")
        else
            abouts+=("")
        fi
        (( ${#cands[-1]} > width )) && width=${#cands[-1]}
    done
    (( ${#cands} )) || return 1
    for i in {1..${#cands}}; do
        if [[ -n ${abouts[i]} ]]; then
            descs+=("${(r:width:)cands[i]}  -- ${abouts[i]}")
            described=1
        else
            descs+=("${cands[i]}")
        fi
    done
    if (( described )); then
        compadd -l -d descs -a cands
    else
        compadd -a cands
    fi
}

if [ "$funcstack[1]" = "_allot" ]; then
    _allot "$@"
else
    compdef _allot allot
fi
`

// fishCompletion lets fish show the descriptions beside the candidates.
const fishCompletion = `
# fish completion for allot. Install: allot completion fish > ~/.config/fish/completions/allot.fish
# The candidates come from allot itself (allot __complete).

function __allot_complete
    set -l args (commandline -opc)
    set -l allot $args[1]
    set -e args[1]
    set -l cur (commandline -ct | string unescape)
    set -l out (command $allot __complete $args "$cur" 2>/dev/null)
    test (count $out) -gt 0; or return
    set -l directive $out[-1]
    set -e out[-1]
    switch $directive
        case :1
            __fish_complete_path "$cur"
        case :2
            __fish_complete_directories "$cur"
        case :0
            printf '%s\n' $out
    end
end

complete -c allot -f -a '(__allot_complete)'
`
